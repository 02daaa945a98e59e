import { type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { ArticleEditor } from "~/components/editor/article-editor";
import { contentStylesheetUrl } from "~/content/stylesheet";
import { notFound } from "~/errors";
import { articleIdSchema } from "~/models/tree-input";
import { describeMedia, mediaSources } from "~/models/media.server";
import { getMuseum } from "~/models/museums.server";
import { readArticle } from "~/models/tree.server";
import { can } from "~/teams/roles";
import editorStylesheetUrl from "~/styles/editor.css?url";
import keepStylesheetUrl from "~/styles/editor-keep.css?url";
import historyStylesheetUrl from "~/styles/history.css?url";
import stopNumberStylesheetUrl from "~/styles/stop-number.css?url";
import { pageMeta } from "~/utils/meta";
import { refusePage } from "~/utils/page.server";
import { requireUser } from "~/utils/session.server";
import { orArticlePageError } from "~/utils/trashed-page.server";
import { StaffErrorBoundary } from "~/components/staff-error-boundary";

export const meta: MetaFunction = ({ matches }) => pageMeta(matches, "editor", { noindex: true });

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: contentStylesheetUrl },
  { rel: "stylesheet", href: editorStylesheetUrl },
  { rel: "stylesheet", href: keepStylesheetUrl },
  // The conflict's comparison speaks the history page's diff (decision 068).
  { rel: "stylesheet", href: historyStylesheetUrl },
  // The stop number field (issue 21).
  { rel: "stylesheet", href: stopNumberStylesheetUrl },
];

/** `/article?id=`: a missing, malformed, another museum's or trashed id is the not-found page, never a 500. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireUser(request, context, "content.edit");
  const parsed = articleIdSchema.safeParse(new URL(request.url).searchParams.get("id") ?? undefined);
  if (!parsed.success) refusePage(notFound("Article", "id"));
  const [read, museum] = await Promise.all([
    orArticlePageError(context, user.museumId, parsed.data, readArticle(context.db, user.museumId, parsed.data)),
    getMuseum(context.db, user.museumId),
  ]);
  const { pathArray, id, name, unformatted_name, content, version } = read;
  // The uploaded files' own names and sizes, so the forms never show a storage path (issue 20).
  const mediaFiles = await describeMedia(context.db, user.museumId, mediaSources(content));
  // Publishing (decision 041): the state only, not the published content (the editor never shows it).
  const publishing = can(user, "content.publish")
    ? {
        state: {
          everPublished: read.published !== null,
          publishedVersion: read.published?.version ?? null,
          publishedAt: read.published?.publishedAt ?? null,
          publishAt: read.publishAt,
          publishAtBy: read.publishAtBy,
        },
        timeZone: museum?.timezone ?? "UTC",
      }
    : undefined;
  // The editor keeps unsaved changes in the browser per user (decision 071), and its login dialog names the account.
  return {
    article: { id, name, unformatted_name, content, version },
    museumSlug: user.museumSlug,
    pathArray,
    publishing,
    user: { id: user.id, email: user.email },
    mediaFiles,
  };
}

export default function ArticleEditorRoute() {
  const { article, museumSlug, pathArray, publishing, user, mediaFiles } = useLoaderData<typeof loader>();
  return (
    <ArticleEditor
      key={article.id}
      article={article}
      museumSlug={museumSlug}
      pathArray={pathArray}
      publishing={publishing}
      user={user}
      mediaFiles={mediaFiles}
    />
  );
}

/** What happened and what to do, when the page cannot be shown (decision 136). */
export function ErrorBoundary() {
  return <StaffErrorBoundary subject="article" />;
}
