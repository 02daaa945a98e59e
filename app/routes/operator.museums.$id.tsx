import { data, type ActionFunctionArgs, type HeadersFunction, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { asDomainError, notFound } from "~/errors";
import { museumFigures } from "~/operator/figures.server";
import { inviteAdminAsOperator, setSuspended } from "~/operator/museums.server";
import { closeMuseum, closedArchive, purgeTime, reopenMuseum } from "~/closing/closing.server";
import { monthlyCharsFrom } from "~/narration/budget.server";
import { setBounds } from "~/usage/bounds.server";
import { readBounds, translationMonthlyCharsFrom } from "~/usage/usage.server";
import { questionsMonthlyFrom } from "~/questions/store.server";
import { formatCosts } from "~/operator/format";
import { euShardsFrom, rollbackFromConsole, startMove } from "~/shards/console-move.server";
import { requireOperator } from "~/operator/session.server";
import operatorStyles from "~/styles/operator.css?url";
import { methodNotAllowed, readFormBody } from "~/utils/http.server";
import { pageMeta } from "~/utils/meta";
import { refusePage } from "~/utils/page.server";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: operatorStyles }];
export const meta: MetaFunction = ({ matches }) => pageMeta(matches, "operator.museum", { noindex: true });
export const headers: HeadersFunction = () => ({ "Cache-Control": "private, no-store" });

const museumId = (raw: string | undefined) => (raw && /^[1-9]\d{0,14}$/.test(raw) ? Number(raw) : null);

/** One museum, its figures and this month's engine use, and what an operator does to it (decisions 147, 148). */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  await requireOperator(request, context);
  const id = museumId(params.id);
  const [museum] = id === null ? [] : await museumFigures(context.shards.shards.directory, context.shards.shards.byIndex, { only: id });
  if (!museum) refusePage(notFound("Museum"));
  const db = context.shards.shards.byIndex.get(museum.shard)!;
  const env = context.cloudflare.env as unknown as Record<string, unknown>;
  const directory = context.shards.shards.directory;
  const [own, sizes, move, archive] = await Promise.all([
    db.prepare("SELECT suspended_at AS suspendedAt FROM museums WHERE id = ?1").bind(museum.id).first<{ suspendedAt: number | null }>(),
    directory.prepare("SELECT shard, bytes FROM shards").all<{ shard: number; bytes: number }>(),
    directory
      .prepare("SELECT state, moving_to AS movingTo, moved_from AS movedFrom, state_since AS since FROM museums WHERE id = ?1")
      .bind(museum.id)
      .first<{ state: string; movingTo: number | null; movedFrom: number | null; since: number | null }>(),
    museum.closedAt === null ? null : closedArchive(context.media, museum.id),
  ]);
  // How the last move ended, from the operator audit log (the moves queue writes it).
  const lastMove = await directory
    .prepare("SELECT at, action, detail FROM operator_audit WHERE museum_id = ?1 AND action IN ('museum.moved', 'museum.move_failed') ORDER BY id DESC LIMIT 1")
    .bind(museum.id)
    .first<{ at: number; action: string; detail: string }>();
  const eu = euShardsFrom(env);
  const bytesOf = new Map(sizes.results.map((r) => [r.shard, r.bytes]));
  const shards = [...context.shards.shards.byIndex.keys()].map((k) => ({ shard: k, eu: eu.has(k), bytes: bytesOf.get(k) ?? null }));
  const shardBytes = bytesOf.get(museum.shard) ?? null;
  const defaults = { translation: translationMonthlyCharsFrom(env), narration: monthlyCharsFrom(env), questions: questionsMonthlyFrom(env) };
  const bounds = await readBounds(db, museum.id, defaults);
  return {
    museum,
    suspendedAt: own?.suspendedAt ?? null,
    bounds,
    defaults,
    shardBytes,
    shards,
    move: move ?? null,
    lastMove: lastMove
      ? {
          at: lastMove.at,
          ok: lastMove.action === "museum.moved",
          ...(JSON.parse(lastMove.detail) as { from?: number; to?: number; frozenMs?: number; reason?: string }),
        }
      : null,
    archive: archive && museum.closedAt !== null ? { ...archive, until: purgeTime(museum.closedAt) } : null,
  };
}

const FORM_FIELDS = ["translationBound", "narrationBound", "questionsBound", "confirm", "to", "adminEmail"];
const INTENTS = ["suspend", "resume", "bounds", "close", "reopen", "move", "rollback", "invite"] as const;
type Intent = (typeof INTENTS)[number];
type Result =
  | { ok: true; intent: Intent; invitation?: { url: string; expiresAt: number; email: string } }
  | { ok: false; intent: Intent | null; reason: string; field?: string };

export async function action({ request, params, context }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed("GET, POST");
  const operator = await requireOperator(request, context);
  const body = await readFormBody(request);
  if (!body.ok) return body.response;
  const raw = body.form.get("intent");
  const intent = (INTENTS as readonly unknown[]).includes(raw) ? (raw as Intent) : null;
  const id = museumId(params.id);
  if (intent === null) return data<Result>({ ok: false, intent, reason: "invalid_intent", field: "intent" }, { status: 400 });
  if (id === null) return data<Result>({ ok: false, intent, reason: "not_found" }, { status: 404 });
  const env = { directory: context.directory, shards: context.shards.shards.byIndex, kv: context.kv, media: context.media };
  try {
    if (intent === "suspend" || intent === "resume") await setSuspended(env, operator, id, intent === "suspend");
    else if (intent === "bounds") await setBounds(env, operator, id, body.form);
    else if (intent === "close") await closeMuseum(env, operator, id, body.form.get("confirm"));
    else if (intent === "invite") {
      const made = await inviteAdminAsOperator(env, operator, id, body.form.get("adminEmail"), new URL(request.url).origin);
      return data<Result>({ ok: true, intent, invitation: { url: made.invitationUrl, expiresAt: made.expiresAt, email: made.email } });
    } else if (intent === "move" || intent === "rollback") {
      const shards = context.shards.shards;
      const moves = {
        directory: shards.directory,
        shards: shards.byIndex,
        kv: context.kv,
        euShards: euShardsFrom(context.cloudflare.env as unknown as Record<string, unknown>),
        audit: context.directory,
      };
      if (intent === "move") await startMove({ ...moves, queue: context.cloudflare.env.MOVES }, operator, id, body.form.get("to"));
      else await rollbackFromConsole(moves, operator, id);
    } else await reopenMuseum(env, operator, id);
    return data<Result>({ ok: true, intent });
  } catch (error) {
    const domain = asDomainError(error);
    if (!domain) throw error;
    return data<Result>(
      { ok: false, intent, reason: domain.reason ?? domain.code, ...(domain.field ? { field: domain.field } : {}) },
      { status: domain.status },
    );
  }
}

export default function OperatorMuseum() {
  const { t, i18n } = useTranslation();
  const { museum, suspendedAt, bounds, defaults, shardBytes, shards, move, lastMove, archive } = useLoaderData<typeof loader>();
  const result = useActionData<Result>();
  const navigation = useNavigation();
  const locale = i18n.language === "en" ? "en-GB" : "fr-FR";
  const date = new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" });
  const day = new Intl.DateTimeFormat(locale, { dateStyle: "long", timeZone: "UTC" });
  const number = new Intl.NumberFormat(locale);
  const megabytes = new Intl.NumberFormat(locale, { maximumFractionDigits: 1 });
  const busy = navigation.state !== "idle";
  const suspended = suspendedAt !== null;
  const closed = museum.closedAt !== null;
  const message = result
    ? result.ok
      ? t(`operator.museum.done.${result.intent}`)
      : t([`operator.museum.errors.${result.field ?? ""}`, `operator.museum.errors.${result.reason}`, "operator.museum.errors.unknown"])
    : null;
  // A refusal of a field the page shows is said beside it; any other, above.
  const atField = result && !result.ok && result.field && FORM_FIELDS.includes(result.field) ? result.field : null;
  const fieldError = (field: string) => (atField === field ? `${field}-error` : undefined);
  const errorFor = (field: string) =>
    atField === field ? (
      <p id={`${field}-error`} className="form__error" role="alert">
        {message}
      </p>
    ) : null;
  return (
    <section className="page page--narrow operator-museum">
      <p>
        <Link to="/operator">{t("operator.museum.back")}</Link>
      </p>
      <h1>
        <bdi>{museum.name}</bdi>
      </h1>
      <p className="muted">
        {museum.slug} · #{museum.id} · {t("operator.create.shardNumber", { shard: museum.shard })}
        {museum.jurisdiction === "eu" ? ` (${t("operator.console.eu")})` : ""}
      </p>
      <div aria-live="polite">
        {message && atField === null ? (
          <p className={result?.ok ? undefined : "form__error"} role={result?.ok ? "status" : "alert"}>
            {message}
          </p>
        ) : null}
      </div>
      <p>
        {museum.state === "moving" ? <strong>{t("operator.console.states.moving")} </strong> : null}
        {closed
          ? t("operator.museum.closedSince", { date: date.format(museum.closedAt!), until: day.format(archive?.until ?? museum.closedAt!) })
          : suspended
            ? t("operator.museum.suspendedSince", { date: date.format(suspendedAt) })
            : t("operator.museum.active")}
      </p>

      <h2>{t("operator.museum.figures")}</h2>
      <dl className="operator-figures">
        <dt>{t("operator.console.columns.members")}</dt>
        <dd>{number.format(museum.members)}</dd>
        <dt>{t("operator.console.columns.articles")}</dt>
        <dd>{number.format(museum.articles)}</dd>
        <dt>{t("operator.console.columns.languages")}</dt>
        <dd>{number.format(museum.languages)}</dd>
        <dt>{t("operator.console.columns.scans30")}</dt>
        <dd>{number.format(museum.scans30)}</dd>
        <dt>{t("operator.console.columns.views30")}</dt>
        <dd>{number.format(museum.views30)}</dd>
        <dt>{t("operator.console.columns.mediaBytes")}</dt>
        <dd>{megabytes.format(museum.mediaBytes / 1e6)}</dd>
        <dt>{t("operator.console.columns.d1Bytes")}</dt>
        <dd>{museum.d1Bytes === null ? t("operator.museum.notMeasured") : megabytes.format(museum.d1Bytes / 1e6)}</dd>
        <dt>{t("operator.museum.shardSize")}</dt>
        <dd>{shardBytes === null ? t("operator.museum.notMeasured") : megabytes.format(shardBytes / 1e6)}</dd>
      </dl>

      <h2 id="usage-title">{t("operator.museum.usage")}</h2>
      {museum.usage.length === 0 ? (
        <p>{t("operator.museum.noUsage")}</p>
      ) : (
        <div className="operator-table" role="region" aria-labelledby="usage-title" tabIndex={0}>
          <table>
            <thead>
              <tr>
                <th scope="col">{t("operator.museum.kind")}</th>
                <th scope="col">{t("operator.museum.engine")}</th>
                <th scope="col" className="num">
                  {t("operator.museum.chars")}
                </th>
                <th scope="col" className="num">
                  {t("operator.museum.calls")}
                </th>
              </tr>
            </thead>
            <tbody>
              {museum.usage.map((row) => (
                <tr key={`${row.kind}-${row.engine}`}>
                  <td>{t(`operator.museum.kinds.${row.kind}`)}</td>
                  <td>
                    <code>{row.engine}</code>
                  </td>
                  <td className="num">{number.format(row.chars)}</td>
                  <td className="num">{number.format(row.calls)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <p>
        {t("operator.museum.cost")} <strong>{formatCosts(locale, museum, t("operator.console.unpriced"))}</strong>
      </p>

      <h2>{t("operator.museum.bounds")}</h2>
      <p>{t("operator.museum.boundsIntro")}</p>
      <Form method="post" className="form">
        <input type="hidden" name="intent" value="bounds" />
        <input type="hidden" name="seenTranslationBound" value={museum.translationBound ?? ""} />
        <input type="hidden" name="seenNarrationBound" value={museum.narrationBound ?? ""} />
        <input type="hidden" name="seenQuestionsBound" value={museum.questionsBound ?? ""} />
        {(["translation", "narration", "questions"] as const).map((kind) => {
          const field = `${kind}Bound`;
          const bound = bounds[kind];
          return (
            <label className="field" key={kind}>
              <span>{t(`operator.museum.${kind}Bound`)}</span>
              <input
                name={field}
                inputMode="numeric"
                maxLength={16}
                defaultValue={museum[`${kind}Bound`] ?? ""}
                placeholder={number.format(defaults[kind])}
                aria-invalid={fieldError(field) ? true : undefined}
                aria-describedby={[`${field}-hint`, fieldError(field)].filter(Boolean).join(" ")}
              />
              <small id={`${field}-hint`} className="muted">
                {t(kind === "questions" ? "operator.museum.answersHint" : "operator.museum.boundHint", {
                  used: number.format(bound.used),
                  limit: number.format(bound.limit),
                })}{" "}
                {bound.own ? t("operator.museum.boundOwn") : t("operator.museum.boundDefault")}
              </small>
              {errorFor(field)}
            </label>
          );
        })}
        <button type="submit" className="button" disabled={busy || closed}>
          {t("operator.museum.saveBounds")}
        </button>
      </Form>

      <h2>{t("operator.museum.inviteTitle")}</h2>
      <p>{t("operator.museum.inviteIntro")}</p>
      {result?.ok && result.invitation ? (
        <div className="operator-invitation">
          <p>{t("operator.museum.invitationFor", { email: result.invitation.email, date: date.format(result.invitation.expiresAt) })}</p>
          <p>
            <code>{result.invitation.url}</code>
          </p>
        </div>
      ) : null}
      <Form method="post" className="form">
        <input type="hidden" name="intent" value="invite" />
        <label className="field">
          <span>{t("operator.create.adminEmail")}</span>
          <input
            type="email"
            name="adminEmail"
            required
            maxLength={254}
            autoComplete="off"
            aria-invalid={fieldError("adminEmail") ? true : undefined}
            aria-describedby={fieldError("adminEmail")}
          />
          {errorFor("adminEmail")}
        </label>
        <button type="submit" className="button button--ghost" disabled={busy || closed}>
          {t("operator.museum.invite")}
        </button>
      </Form>

      <h2>{t("operator.museum.suspendTitle")}</h2>
      <p>{t("operator.museum.suspendIntro")}</p>
      <Form method="post">
        <input type="hidden" name="intent" value={suspended ? "resume" : "suspend"} />
        <button type="submit" className={suspended ? "button" : "button button--danger"} disabled={busy || museum.state === "moving" || closed}>
          {t(suspended ? "operator.museum.resume" : "operator.museum.suspend")}
        </button>
      </Form>

      <h2>{t("operator.museum.moveTitle")}</h2>
      {move && move.state !== "active" ? (
        <>
          <p>
            {t("operator.museum.moving", {
              to: move.movingTo,
              step: t(`operator.museum.moveSteps.${move.state}`),
              since: move.since === null ? "" : date.format(move.since),
            })}
          </p>
          <p>{t("operator.museum.rollbackIntro")}</p>
          <Form method="post">
            <input type="hidden" name="intent" value="rollback" />
            <button type="submit" className="button button--ghost" disabled={busy}>
              {t("operator.museum.rollback")}
            </button>
          </Form>
        </>
      ) : (
        <>
          <p>{t("operator.museum.moveIntro")}</p>
          {move?.movedFrom != null ? <p>{t("operator.museum.movedFrom", { from: move.movedFrom })}</p> : null}
          {lastMove ? (
            <p>
              {lastMove.ok
                ? t("operator.museum.lastMoved", {
                    from: lastMove.from,
                    to: lastMove.to,
                    date: date.format(lastMove.at),
                    seconds: Math.round((lastMove.frozenMs ?? 0) / 100) / 10,
                  })
                : t("operator.museum.lastMoveFailed", { date: date.format(lastMove.at), reason: lastMove.reason ?? "" })}
            </p>
          ) : null}
          <Form method="post" className="form">
            <input type="hidden" name="intent" value="move" />
            <label className="field">
              <span>{t("operator.museum.moveTo")}</span>
              <select name="to" aria-invalid={fieldError("to") ? true : undefined} aria-describedby={fieldError("to")} defaultValue="">
                <option value="" disabled>
                  {t("operator.museum.chooseShard")}
                </option>
                {shards
                  .filter((s) => s.shard !== museum.shard && s.eu === (museum.jurisdiction === "eu"))
                  .map((s) => (
                    <option key={s.shard} value={s.shard}>
                      {t("operator.museum.shardOption", {
                        shard: s.shard,
                        size: s.bytes === null ? t("operator.museum.notMeasured") : `${megabytes.format(s.bytes / 1e6)} MB`,
                      })}
                      {s.eu ? ` (${t("operator.console.eu")})` : ""}
                    </option>
                  ))}
              </select>
              {errorFor("to")}
            </label>
            <button type="submit" className="button" disabled={busy || closed || move?.movedFrom != null}>
              {t("operator.museum.move")}
            </button>
          </Form>
        </>
      )}

      <h2>{t("operator.museum.closeTitle")}</h2>
      {closed ? (
        <>
          {archive ? (
            <p>
              <a href={`/operator/museums/${museum.id}/archive`} download>
                {t("operator.museum.archiveLink", {
                  size: new Intl.NumberFormat(locale, { style: "unit", unit: archive.size < 1e6 ? "kilobyte" : "megabyte", maximumFractionDigits: 1 }).format(
                    archive.size < 1e6 ? archive.size / 1e3 : archive.size / 1e6,
                  ),
                })}
              </a>
            </p>
          ) : null}
          <p>{t("operator.museum.reopenIntro")}</p>
          <Form method="post">
            <input type="hidden" name="intent" value="reopen" />
            <button type="submit" className="button button--ghost" disabled={busy}>
              {t("operator.museum.reopen")}
            </button>
          </Form>
        </>
      ) : (
        <>
          <p>{t("operator.museum.closeIntro")}</p>
          <Form method="post" className="form">
            <input type="hidden" name="intent" value="close" />
            <label className="field">
              <span>{t("operator.museum.closeConfirm", { slug: museum.slug })}</span>
              <input
                name="confirm"
                autoComplete="off"
                spellCheck={false}
                maxLength={60}
                required
                aria-invalid={fieldError("confirm") ? true : undefined}
                aria-describedby={fieldError("confirm")}
              />
              {errorFor("confirm")}
            </label>
            <button type="submit" className="button button--danger" disabled={busy || museum.state === "moving"}>
              {t("operator.museum.close")}
            </button>
          </Form>
        </>
      )}
    </section>
  );
}
