import { type ActionFunctionArgs, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { useActionData, useLoaderData } from "@remix-run/react";
import { EasyReadPage, type EasyReadResult } from "~/components/easy-read/easy-read-page";
import { approveEasyRead, deleteEasyRead, generateEasyRead, readEasyRead, updateEasyRead } from "~/easy-read/easy-read.server";
import { approveEasyReadSchema, generateEasyReadSchema, updateEasyReadSchema } from "~/easy-read/input";
import { isDomainError, notFound } from "~/errors";
import { articleIdSchema } from "~/models/tree-input";
import easyReadStylesheetUrl from "~/styles/easy-read.css?url";
import { can } from "~/teams/roles";
import { easyReadDeps } from "~/utils/easy-read-deps.server";
import { fieldErrors, formString } from "~/utils/form";
import { formRefusal, readStaffForm } from "~/utils/form-action.server";
import { pageMeta } from "~/utils/meta";
import { refusePage } from "~/utils/page.server";
import { requireUser } from "~/utils/session.server";
import { orArticlePageError } from "~/utils/trashed-page.server";
import { StaffErrorBoundary } from "~/components/staff-error-boundary";

export const meta: MetaFunction = ({ matches }) => pageMeta(matches, "easyRead", { noindex: true });

export const links: LinksFunction = () => [{ rel: "stylesheet", href: easyReadStylesheetUrl }];

function articleIdFrom(request: Request) {
  const parsed = articleIdSchema.safeParse(new URL(request.url).searchParams.get("id") ?? undefined);
  return parsed.success ? parsed.data : null;
}

/** `/easy-read?id=`: the article's original beside its easy-to-read version (decision 094). */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireUser(request, context, "content.edit");
  const id = articleIdFrom(request);
  if (id === null) refusePage(notFound("Article", "id"));
  const state = await orArticlePageError(context, user.museumId, id, readEasyRead(context.db, user.museumId, id));
  return { state, canApprove: can(user, "content.publish") };
}

const INTENTS = ["generate", "save", "approve", "delete"] as const;
type Intent = (typeof INTENTS)[number];

/** The page's forms call the same models as the API: generate, save (edit), approve, delete. */
export async function action({ request, context }: ActionFunctionArgs) {
  const read = await readStaffForm(request, context, (intent) => (intent === "approve" ? "content.publish" : "content.edit"));
  if ("response" in read) return read.response;
  const { user, form } = read;
  const intent = read.intent as Intent;
  if (!INTENTS.includes(intent)) return formRefusal("save", { intent: "invalid" });
  const articleId = new URL(request.url).searchParams.get("id") ?? undefined;
  const version = Number(formString(form, "version"));
  try {
    if (intent === "generate") {
      const parsed = generateEasyReadSchema.safeParse({ articleId, version });
      if (!parsed.success) return formRefusal(intent, fieldErrors(parsed.error));
      const state = await generateEasyRead(easyReadDeps(context), user, parsed.data);
      return { intent, ok: true, version: state.version } satisfies EasyReadResult;
    }
    if (intent === "save") {
      // No prototype: a field named "f:__proto__" must be refused (400) like any unknown field, not vanish.
      const texts: Record<string, string> = Object.create(null) as Record<string, string>;
      for (const [name, value] of form) if (name.startsWith("f:") && typeof value === "string") texts[name.slice(2)] = value;
      const parsed = updateEasyReadSchema.safeParse({ articleId, version, texts });
      if (!parsed.success) return formRefusal(intent, fieldErrors(parsed.error));
      const state = await updateEasyRead(context.db, user, parsed.data);
      return { intent, ok: true, version: state.version } satisfies EasyReadResult;
    }
    if (intent === "approve") {
      const parsed = approveEasyReadSchema.safeParse({ articleId, version });
      if (!parsed.success) return formRefusal(intent, fieldErrors(parsed.error));
      const state = await approveEasyRead(context.db, user, parsed.data);
      return { intent, ok: true, version: state.version } satisfies EasyReadResult;
    }
    const parsed = articleIdSchema.safeParse(articleId);
    if (!parsed.success) return formRefusal(intent, { articleId: "wrong_type" });
    await deleteEasyRead(context.db, user, { articleId: parsed.data });
    return { intent, ok: true } satisfies EasyReadResult;
  } catch (error) {
    if (isDomainError(error)) return formRefusal(intent, { [error.field ?? "_form"]: error.reason ?? "invalid" }, { status: error.status, error });
    throw error;
  }
}

export default function EasyReadRoute() {
  const data = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>() as EasyReadResult | undefined;
  return <EasyReadPage state={data.state} canApprove={data.canApprove} result={result} />;
}

/** What happened and what to do, when the page cannot be shown (decision 136). */
export function ErrorBoundary() {
  return <StaffErrorBoundary subject="article" />;
}
