import { Link } from "@remix-run/react";
import type { ReactElement } from "react";
import { Trans, useTranslation } from "react-i18next";
import type { AuditEntryView, TargetNow } from "~/audit/query.server";
import { languageLabel } from "~/translation/languages";
import { sentenceKey } from "./audit-labels";

interface Props {
  entries: AuditEntryView[];
  targets: Record<string, TargetNow>;
  timeZone: string;
}

const text = (value: unknown) => (typeof value === "string" || typeof value === "number" ? String(value) : "");

/** Where a target can be opened, when it still exists. */
function targetHref(target: string): string | null {
  const [kind, id] = target.split(":");
  if (kind === "article") return `/article?id=${id}`;
  if (kind === "qrcode") return `/qrcode?id=${id}`;
  if (kind === "tour") return `/tours/${id}`;
  if (kind === "glossary") return "/glossary";
  if (kind === "user") return "/team";
  return null;
}

function Sentence({ entry, targets }: { entry: AuditEntryView; targets: Record<string, TargetNow> }) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language === "en" ? "en" : "fr";
  const d = entry.detail;
  const now = targets[entry.target];
  // A rename says the name it gave, whatever the target is called today.
  const name =
    (entry.action.endsWith(".rename") ? text(d.name) : "") || (now?.name ?? (text(d.name) || text(d.term) || text(d.email) || text(d.link) || entry.target));
  const to = Array.isArray(d.to) ? (d.to.length > 0 ? d.to.map(String).join(" / ") : t("articles.title")) : "";
  const key = sentenceKey(entry.action, d);
  const langs = Array.isArray(d.languages) ? d.languages.map((l) => languageLabel(String(l), locale)).join(", ") : "";
  const href = now ? targetHref(entry.target) : null;
  const components: Record<string, ReactElement> = { target: href ? <Link to={href} /> : <span /> };
  const values = {
    name,
    languages: langs,
    lang: d.lang ? languageLabel(String(d.lang), locale) : "",
    article: text(d.name),
    role: d.role ? t(`audit.role.${text(d.role)}`, { defaultValue: text(d.role) }) : "",
    version: text(d.version),
    file: text(d.file),
    created: text(d.created),
    updated: text(d.updated),
    skipped: text(d.skipped),
    from: text(d.from),
    to,
    text: text(d.text),
    question: text(d.question),
    n: text(d.count),
    // A count picks the sentence's plural form ("marked 3 translations").
    ...(typeof d.count === "number" ? { count: d.count } : {}),
  };
  // Names are staff's text: escaped before Trans parses the sentence's tags, shown back as plain text.
  return (
    <Trans
      i18nKey={`audit.sentence.${key}`}
      values={values}
      components={components}
      tOptions={{ interpolation: { escapeValue: true } }}
      shouldUnescape
      defaults={t("audit.sentence.unknown", { action: entry.action })}
    />
  );
}

/** The entries as a table: when, who, what in words (the target linked while it exists). */
export function AuditTable({ entries, targets, timeZone }: Props) {
  const { t, i18n } = useTranslation();
  const date = new Intl.DateTimeFormat(i18n.language, { dateStyle: "medium", timeStyle: "short", timeZone });
  return (
    <table className="audit-table">
      <caption className="visually-hidden">{t("audit.caption")}</caption>
      <thead>
        <tr>
          <th scope="col">{t("audit.when")}</th>
          <th scope="col">{t("audit.who")}</th>
          <th scope="col">{t("audit.what")}</th>
        </tr>
      </thead>
      <tbody>
        {entries.map((entry) => (
          <tr key={entry.id}>
            <td data-label={t("audit.when")}>
              <time dateTime={new Date(entry.at).toISOString()}>{date.format(entry.at)}</time>
            </td>
            <td data-label={t("audit.who")} className="audit-table__who">
              {entry.actorEmail || t("audit.system")}
            </td>
            <td data-label={t("audit.what")}>
              <Sentence entry={entry} targets={targets} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
