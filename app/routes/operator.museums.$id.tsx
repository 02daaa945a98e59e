import { data, type ActionFunctionArgs, type HeadersFunction, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { asDomainError, notFound } from "~/errors";
import { museumFigures } from "~/operator/figures.server";
import { setSuspended } from "~/operator/museums.server";
import { requireOperator } from "~/operator/session.server";
import operatorStyles from "~/styles/operator.css?url";
import { methodNotAllowed, readFormBody } from "~/utils/http.server";
import { pageMeta } from "~/utils/meta";
import { refusePage } from "~/utils/page.server";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: operatorStyles }];
export const meta: MetaFunction = ({ matches }) => pageMeta(matches, "operator.museum", { noindex: true });
export const headers: HeadersFunction = () => ({ "Cache-Control": "private, no-store" });

const museumId = (raw: string | undefined) => (raw && /^[1-9]\d{0,14}$/.test(raw) ? Number(raw) : null);

async function suspendedAt(context: LoaderFunctionArgs["context"], id: number, shard: number): Promise<number | null> {
  const db = context.shards.shards.byIndex.get(shard);
  const row = db ? await db.prepare("SELECT suspended_at AS at FROM museums WHERE id = ?1").bind(id).first<{ at: number | null }>() : null;
  return row?.at ?? null;
}

/** One museum, its figures, and what an operator does to it (suspend, resume; decision 147). */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  await requireOperator(request, context);
  const id = museumId(params.id);
  const [museum] = id === null ? [] : await museumFigures(context.shards.shards.directory, context.shards.shards.byIndex, { only: id });
  if (!museum) refusePage(notFound("Museum"));
  return { museum, suspendedAt: await suspendedAt(context, museum.id, museum.shard) };
}

type Result = { ok: true; suspended: boolean } | { ok: false; reason: string };

export async function action({ request, params, context }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed("GET, POST");
  const operator = await requireOperator(request, context);
  const body = await readFormBody(request);
  if (!body.ok) return body.response;
  const intent = body.form.get("intent");
  const id = museumId(params.id);
  if (intent !== "suspend" && intent !== "resume") return data<Result>({ ok: false, reason: "invalid_intent" }, { status: 400 });
  if (id === null) return data<Result>({ ok: false, reason: "not_found" }, { status: 404 });
  try {
    const done = await setSuspended(
      { directory: context.directory, shards: context.shards.shards.byIndex, kv: context.kv },
      operator,
      id,
      intent === "suspend",
    );
    return data<Result>({ ok: true, suspended: done.suspended });
  } catch (error) {
    const domain = asDomainError(error);
    if (!domain) throw error;
    return data<Result>({ ok: false, reason: domain.reason ?? domain.code }, { status: domain.status });
  }
}

export default function OperatorMuseum() {
  const { t, i18n } = useTranslation();
  const { museum, suspendedAt } = useLoaderData<typeof loader>();
  const result = useActionData<Result>();
  const navigation = useNavigation();
  const date = new Intl.DateTimeFormat(i18n.language === "en" ? "en-GB" : "fr-FR", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" });
  const suspended = suspendedAt !== null;
  const message = result
    ? result.ok
      ? t(result.suspended ? "operator.museum.suspended" : "operator.museum.resumed")
      : t([`operator.museum.errors.${result.reason}`, "operator.museum.errors.unknown"])
    : null;
  return (
    <section className="page page--narrow">
      <p>
        <Link to="/operator">{t("operator.museum.back")}</Link>
      </p>
      <h1>
        <bdi>{museum.name}</bdi>
      </h1>
      <p className="muted">
        {museum.slug} · #{museum.id} · {t("operator.create.shardNumber", { shard: museum.shard })}
      </p>
      {message ? (
        <p className={result?.ok ? undefined : "form__error"} role={result?.ok ? "status" : "alert"}>
          {message}
        </p>
      ) : null}
      <p>{suspended ? t("operator.museum.suspendedSince", { date: date.format(suspendedAt) }) : t("operator.museum.active")}</p>
      <p>{t("operator.museum.suspendIntro")}</p>
      <Form method="post">
        <input type="hidden" name="intent" value={suspended ? "resume" : "suspend"} />
        <button type="submit" className={suspended ? "button" : "button button--danger"} disabled={navigation.state !== "idle" || museum.state === "moving"}>
          {t(suspended ? "operator.museum.resume" : "operator.museum.suspend")}
        </button>
      </Form>
    </section>
  );
}
