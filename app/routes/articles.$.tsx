import { type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { ArticlesBrowser } from "~/components/articles/articles-browser";
import { allFolderPaths, findFolder } from "~/components/articles/tree-helpers";
import { listTree } from "~/models/tree.server";
import { publicationBadges } from "~/publishing/publish.server";
import { pageMeta } from "~/utils/meta";
import { requireUser } from "~/utils/session.server";
import { refuseMissingFolder } from "~/utils/trashed-page.server";
import { can } from "~/teams/roles";
import { StaffErrorBoundary } from "~/components/staff-error-boundary";

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
  // 404, said by the error boundary; a folder in the trash is named as such.
  if (!items) return refuseMissingFolder(context, user.museumId, path);
  return { path, items, folders: allFolderPaths(tree), badges, canEdit };
}

export default function ArticlesRoute() {
  const { path, items, folders, badges, canEdit } = useLoaderData<typeof loader>();
  return <ArticlesBrowser key={path.join("/")} path={path} items={items} folders={folders} badges={badges} canEdit={canEdit} />;
}

/** What happened and what to do, when the page cannot be shown (decision 136). */
export function ErrorBoundary() {
  return <StaffErrorBoundary subject="folder" />;
}
