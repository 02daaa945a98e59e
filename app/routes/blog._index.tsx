import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { feedPath } from "~/blog/feed-path";
import { formatCardDate } from "~/blog/format";
import { listPosts } from "~/blog/posts";
import { getLocale } from "~/i18n/i18n.server";
import siteStyles from "~/styles/site.css?url";
import { localeFromMatches, pageMeta } from "~/utils/meta";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: siteStyles }];

export async function loader({ request }: LoaderFunctionArgs) {
  const locale = await getLocale(request);
  const posts = listPosts(locale).map(({ slug, title, description, date, cover, coverAlt, tags }) => ({
    slug,
    title,
    description,
    date,
    cover,
    coverAlt,
    tags,
  }));
  return { posts, locale };
}

export const meta: MetaFunction = ({ matches }) => [
  ...pageMeta(matches, "blog"),
  { tagName: "link", rel: "alternate", type: "application/rss+xml", href: feedPath(localeFromMatches(matches)) },
];

export default function BlogIndex() {
  const { posts, locale } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  return (
    <section className="page blog">
      <h1>{t("blog.title")}</h1>
      <p className="blog__intro">{t("blog.intro")}</p>
      <ol className="blog-cards">
        {posts.map((post, index) => (
          <li key={post.slug} className="blog-card">
            <img src={post.cover} alt="" width={640} height={360} loading={index < 2 ? "eager" : "lazy"} decoding="async" />
            <div className="blog-card__text">
              <time dateTime={post.date}>{formatCardDate(post.date)}</time>
              <h2>
                <Link to={`/blog/${post.slug}`} className="blog-card__link">
                  {post.title}
                </Link>
              </h2>
              <p>{post.description}</p>
              <ul className="blog-card__tags" aria-label={t("blog.tags")}>
                {post.tags.map((tag) => (
                  <li key={tag}>{tag}</li>
                ))}
              </ul>
            </div>
          </li>
        ))}
      </ol>
      <p>
        <a href={feedPath(locale)}>{t("blog.feed")}</a>
      </p>
    </section>
  );
}
