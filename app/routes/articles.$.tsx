import { data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { ArticlesBrowser } from "~/components/articles/articles-browser";
import { allFolderPaths, findFolder } from "~/components/articles/tree-helpers";
import { listTree } from "~/models/tree.server";
import { publicationBadges } from "~/publishing/publish.server";
import { pageMeta } from "~/utils/meta";
import { requireUser } from "~/utils/session.server";
import { can } from "~/teams/roles";

export const meta: MetaFunction = ({ matches }) => pageMeta(matches, "articles", { noindex: true });

/** `/articles` and `/articles/<folder>/<folder>…`: the folder's folders, then its articles. */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const user = await requireUser(request, context, "content.read");
  // Names are stored in NFC; an address typed or pasted in NFD (macOS) must find the same folder.
  const path = (params["*"] ?? "")
    .split("/")
    .filter(Boolean)
    .map((segment) => segment.normalize("NFC"));
  const [tree, badges] = await Promise.all([listTree(context.db, user.museumId), publicationBadges(context.db, user.museumId)]);
  const items = findFolder(tree, path);
  // A translator reads the tree to reach translations; only a role that edits gets the edit controls.
  const canEdit = can(user, "content.edit");
  if (!items) return data({ path, items: null, folders: [], badges: {}, canEdit }, { status: 404 });
  return { path, items, folders: allFolderPaths(tree), badges, canEdit };
}

export default function ArticlesRoute() {
  const { path, items, folders, badges, canEdit } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  if (!items) {
    return (
      <section className="page">
        <h1>{t("articles.folderNotFound")}</h1>
        <Link to="/articles" className="button">
          {t("articles.title")}
        </Link>
      </section>
    );
  }
  return <ArticlesBrowser key={path.join("/")} path={path} items={items} folders={folders} badges={badges} canEdit={canEdit} />;
}
