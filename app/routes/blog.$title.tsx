import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { formatCardDate } from "~/blog/format";
import { findPost } from "~/blog/posts";
import { renderMarkdown } from "~/blog/render.server";
import { getLocale } from "~/i18n/i18n.server";
import siteStyles from "~/styles/site.css?url";
import { siteConfig } from "~/site-config";
import { notFound } from "~/errors";
import { refusePage } from "~/utils/page.server";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: siteStyles }];

export async function loader({ request, params }: LoaderFunctionArgs) {
  const post = findPost(params.title ?? "", await getLocale(request));
  if (!post) refusePage(notFound("Post", "title"));
  const origin = new URL(request.url).origin;
  return {
    origin,
    post: {
      slug: post.slug,
      title: post.title,
      description: post.description,
      date: post.date,
      cover: post.cover,
      coverAlt: post.coverAlt,
      status: post.status,
    },
    html: post.status === "published" ? renderMarkdown(post.body) : null,
  };
}

export const meta: MetaFunction<typeof loader> = ({ data }) => {
  if (!data) return [];
  const { post, origin } = data;
  const url = `${origin}/blog/${post.slug}`;
  const image = `${origin}${post.cover.replace(/\.svg$/, ".png")}`;
  return [
    { title: `${post.title} — ${siteConfig.productName}` },
    { name: "description", content: post.description },
    { tagName: "link", rel: "canonical", href: url },
    { property: "og:type", content: "article" },
    { property: "og:title", content: post.title },
    { property: "og:description", content: post.description },
    { property: "og:url", content: url },
    { property: "og:image", content: image },
    { property: "og:site_name", content: siteConfig.productName },
    { name: "twitter:card", content: "summary_large_image" },
    { name: "twitter:title", content: post.title },
    { name: "twitter:description", content: post.description },
    { name: "twitter:image", content: image },
  ];
};

export default function BlogPost() {
  const { post, html } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  return (
    <article className="page post">
      <p>
        <Link to="/blog">{t("blog.backToList")}</Link>
      </p>
      <p className="post__date">
        <time dateTime={post.date}>{formatCardDate(post.date)}</time>
      </p>
      <h1>{post.title}</h1>
      <img className="post__cover" src={post.cover} alt={post.coverAlt} width={1200} height={630} fetchPriority="high" />
      {html === null ? (
        <p className="post__soon">{t("blog.comingSoon")}</p>
      ) : (
        // Rendered on the server from our own Markdown files; raw HTML in them is escaped (render.server.ts).
        <div className="post__body" dangerouslySetInnerHTML={{ __html: html }} />
      )}
    </article>
  );
}
