import { type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { useActionData, useLoaderData } from "@remix-run/react";
import { HistoryPage, type RestoreResult } from "~/components/publishing/history-page";
import { notFound } from "~/errors";
import { articleIdSchema } from "~/models/tree-input";
import { loadHistoryPage } from "~/publishing/history-page.server";
import { restoreArticleVersion } from "~/publishing/versions.server";
import { restoreArticleVersionSchema } from "~/publishing/versions-input";
import historyStylesheetUrl from "~/styles/history.css?url";
import { can } from "~/teams/roles";
import { fieldErrors, formString } from "~/utils/form";
import { formRefusal } from "~/utils/form-action.server";
import { intentAction, type IntentArgs } from "~/utils/intent-action.server";
import { pageMeta } from "~/utils/meta";
import { refusePage } from "~/utils/page.server";
import { requireUser } from "~/utils/session.server";
import { orArticlePageError } from "~/utils/trashed-page.server";
import { StaffErrorBoundary } from "~/components/staff-error-boundary";

export const meta: MetaFunction = ({ matches }) => pageMeta(matches, "history", { noindex: true });

export const links: LinksFunction = () => [{ rel: "stylesheet", href: historyStylesheetUrl }];

function articleIdFrom(request: Request) {
  const parsed = articleIdSchema.safeParse(new URL(request.url).searchParams.get("id") ?? undefined);
  return parsed.success ? parsed.data : null;
}

/** `/article/history?id=[&view=N][&from=&to=]`: an unknown article, version or side is the not-found page. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireUser(request, context, "content.read");
  const id = articleIdFrom(request);
  if (id === null) refusePage(notFound("Article", "id"));
  const params = new URL(request.url).searchParams;
  const page = await orArticlePageError(
    context,
    user.museumId,
    id,
    loadHistoryPage(context.db, user.museumId, id, { view: params.get("view"), from: params.get("from"), to: params.get("to") }),
  );
  return { ...page, canRestore: can(user, "content.publish") };
}

/** `intent=restore`: a version becomes the draft (the same model as `restore_article_version`). */
async function restoreAction({ request, user, form, context }: IntentArgs) {
  const parsed = restoreArticleVersionSchema.safeParse({ id: new URL(request.url).searchParams.get("id") ?? undefined, version: formString(form, "version") });
  if (!parsed.success) return formRefusal("restore", fieldErrors(parsed.error));
  const restored = await restoreArticleVersion(context.db, user.museumId, { id: user.id, email: user.email }, parsed.data);
  return {
    intent: "restore",
    ok: true,
    restoredFrom: restored.restoredFrom,
    version: restored.version,
    missingMedia: restored.missingMedia,
  } satisfies RestoreResult;
}

export const action = intentAction("content.publish", { restore: restoreAction });

export default function ArticleHistoryRoute() {
  const data = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>() as RestoreResult | undefined;
  return <HistoryPage {...data} result={result} />;
}

/** What happened and what to do, when the page cannot be shown (decision 136). */
export function ErrorBoundary() {
  return <StaffErrorBoundary subject="article" />;
}
