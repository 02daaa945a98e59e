import { type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { useActionData, useLoaderData } from "@remix-run/react";
import { EasyReadPage, type EasyReadResult } from "~/components/easy-read/easy-read-page";
import { approveEasyRead, deleteEasyRead, generateEasyRead, readEasyRead, updateEasyRead } from "~/easy-read/easy-read.server";
import { approveEasyReadSchema, generateEasyReadSchema, updateEasyReadSchema } from "~/easy-read/input";
import { notFound } from "~/errors";
import { articleIdSchema } from "~/models/tree-input";
import easyReadStylesheetUrl from "~/styles/easy-read.css?url";
import { can } from "~/teams/roles";
import { easyReadDeps } from "~/utils/easy-read-deps.server";
import { fieldErrors, formString } from "~/utils/form";
import { formRefusal } from "~/utils/form-action.server";
import { intentAction, type IntentArgs } from "~/utils/intent-action.server";
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

const articleIdOf = (request: Request) => new URL(request.url).searchParams.get("id") ?? undefined;
const versionOf = (form: FormData) => Number(formString(form, "version"));

/** `intent=generate`: the LLM engine writes the easy-to-read version (again). */
async function generateAction({ request, user, form, context }: IntentArgs) {
  const parsed = generateEasyReadSchema.safeParse({ articleId: articleIdOf(request), version: versionOf(form) });
  if (!parsed.success) return formRefusal("generate", fieldErrors(parsed.error));
  const state = await generateEasyRead(easyReadDeps(context), user, parsed.data);
  return { intent: "generate", ok: true, version: state.version } satisfies EasyReadResult;
}

/** `intent=save`: the fields as corrected by hand. */
async function saveAction({ request, user, form, context }: IntentArgs) {
  // No prototype: a field named "f:__proto__" must be refused (400) like any unknown field, not vanish.
  const texts: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const [name, value] of form) if (name.startsWith("f:") && typeof value === "string") texts[name.slice(2)] = value;
  const parsed = updateEasyReadSchema.safeParse({ articleId: articleIdOf(request), version: versionOf(form), texts });
  if (!parsed.success) return formRefusal("save", fieldErrors(parsed.error));
  const state = await updateEasyRead(context.db, user, parsed.data);
  return { intent: "save", ok: true, version: state.version } satisfies EasyReadResult;
}

/** `intent=approve` (`content.publish`): visitors see this version. */
async function approveAction({ request, user, form, context }: IntentArgs) {
  const parsed = approveEasyReadSchema.safeParse({ articleId: articleIdOf(request), version: versionOf(form) });
  if (!parsed.success) return formRefusal("approve", fieldErrors(parsed.error));
  const state = await approveEasyRead(context.db, user, parsed.data);
  return { intent: "approve", ok: true, version: state.version } satisfies EasyReadResult;
}

/** `intent=delete`: the easy-to-read version goes. */
async function deleteAction({ request, user, context }: IntentArgs) {
  const parsed = articleIdSchema.safeParse(articleIdOf(request));
  if (!parsed.success) return formRefusal("delete", { articleId: "wrong_type" });
  await deleteEasyRead(context.db, user, { articleId: parsed.data });
  return { intent: "delete", ok: true } satisfies EasyReadResult;
}

/** The page's forms call the same models as the API: generate, save (edit), approve, delete. */
export const action = intentAction((intent) => (intent === "approve" ? "content.publish" : "content.edit"), {
  generate: generateAction,
  save: saveAction,
  approve: approveAction,
  delete: deleteAction,
});

export default function EasyReadRoute() {
  const data = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>() as EasyReadResult | undefined;
  return <EasyReadPage state={data.state} canApprove={data.canApprove} result={result} />;
}

/** What happened and what to do, when the page cannot be shown (decision 136). */
export function ErrorBoundary() {
  return <StaffErrorBoundary subject="article" />;
}
