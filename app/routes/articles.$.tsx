import { data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { ArticlesBrowser } from "~/components/articles/articles-browser";
import { findFolder } from "~/components/articles/tree-helpers";
import { listTree } from "~/models/tree.server";
import { pageMeta } from "~/utils/meta";
import { requireUser } from "~/utils/session.server";

export const meta: MetaFunction = ({ matches }) => pageMeta(matches, "articles", { noindex: true });

/** `/articles` and `/articles/<folder>/<folder>…`: the folder's folders, then its articles. */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const user = await requireUser(request, context);
  const path = (params["*"] ?? "").split("/").filter(Boolean);
  const items = findFolder(await listTree(context.db, user.museumId), path);
  if (!items) return data({ path, items: null }, { status: 404 });
  return { path, items };
}

export default function ArticlesRoute() {
  const { path, items } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  if (!items) {
    return (
      <section className="page">
        <h1>{t("articles.folderNotFound")}</h1>
        <Link to="/articles" className="button">
          {t("articles.heading")}
        </Link>
      </section>
    );
  }
  return <ArticlesBrowser key={path.join("/")} path={path} items={items} />;
}
