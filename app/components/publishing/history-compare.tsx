import { Form } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import type { ContentDiff, ElementDiff, FieldChange, TextPart } from "~/publishing/diff";
import type { Side } from "~/publishing/history-page.server";
import type { VersionSummary } from "~/publishing/versions.server";
import { ElementFields, useHistoryLabels, useValueText } from "./history-fields";

/** Added text in `<ins>`, removed in `<del>`, each also said in words (not by colour alone). */
export function Parts({ parts }: { parts: TextPart[] }) {
  const { t } = useTranslation();
  return (
    <>
      {parts.map((part, index) =>
        part.op === "same" ? (
          <span key={index}>{part.text}</span>
        ) : part.op === "ins" ? (
          <ins key={index}>
            <span className="visually-hidden">{t("history.insStart")}</span>
            {part.text}
            <span className="visually-hidden">{t("history.insEnd")}</span>
          </ins>
        ) : (
          <del key={index}>
            <span className="visually-hidden">{t("history.delStart")}</span>
            {part.text}
            <span className="visually-hidden">{t("history.delEnd")}</span>
          </del>
        ),
      )}
    </>
  );
}

function Change({ change }: { change: FieldChange }) {
  const labels = useHistoryLabels();
  const valueText = useValueText();
  const { t } = useTranslation();
  return (
    <div className="history-fields__row">
      <dt>{labels.field(change.name)}</dt>
      {change.kind === "text" ? (
        <dd dir="auto" className="history-fields__text">
          <Parts parts={change.parts} />
          {change.coarse ? <small className="history-muted history-coarse">{t("history.coarse")}</small> : null}
        </dd>
      ) : (
        <dd>{t("history.valueChange", { before: valueText(change.name, change.before), after: valueText(change.name, change.after) })}</dd>
      )}
    </div>
  );
}

function Entry({ entry }: { entry: Exclude<ElementDiff, { kind: "same" }> }) {
  const labels = useHistoryLabels();
  const { t } = useTranslation();
  return (
    <li className={`history-diff__item history-diff__item--${entry.kind}`}>
      <p className="history-element__type">
        <span className={`history-badge history-badge--${entry.kind}`}>{t(`history.kinds.${entry.kind}`)}</span> {labels.type(entry.type)}
      </p>
      {entry.kind === "changed" ? (
        entry.changes.length > 0 ? (
          <dl className="history-fields">
            {entry.changes.map((change) => (
              <Change key={change.name} change={change} />
            ))}
          </dl>
        ) : null
      ) : (
        <ElementFields fields={entry.fields} wrap={entry.kind === "added" ? "ins" : "del"} />
      )}
      {entry.details && entry.details.length > 0 ? <DiffList entries={entry.details} nested /> : null}
    </li>
  );
}

/** The entries in order; a run of unchanged elements is one line saying how many. */
export function DiffList({ entries, nested = false }: { entries: ElementDiff[]; nested?: boolean }) {
  const { t } = useTranslation();
  const items: React.ReactNode[] = [];
  let same = 0;
  const flush = (key: string) => {
    if (same > 0)
      items.push(
        <li key={key} className="history-diff__same">
          {t("history.unchanged", { count: same })}
        </li>,
      );
    same = 0;
  };
  entries.forEach((entry, index) => {
    if (entry.kind === "same") {
      same++;
      return;
    }
    flush(`same-${index}`);
    items.push(<Entry key={index} entry={entry} />);
  });
  flush("same-end");
  return <ol className={nested ? "history-diff history-diff--nested" : "history-diff"}>{items}</ol>;
}

export function useSideLabel() {
  const { t } = useTranslation();
  return (side: Side) => (side === "draft" ? t("history.draft") : side === "published" ? t("history.published") : t("history.version", { number: side }));
}

export function HistoryDiff({ from, to, diff, headingRef }: { from: Side; to: Side; diff: ContentDiff; headingRef?: React.Ref<HTMLHeadingElement> }) {
  const { t } = useTranslation();
  const sideLabel = useSideLabel();
  const { added, removed, changed } = diff.counts;
  return (
    <section className="history-panel" aria-labelledby="history-compare-heading">
      <h2 id="history-compare-heading" tabIndex={-1} ref={headingRef}>
        {t("history.compareHeading", { from: sideLabel(from), to: sideLabel(to) })}
      </h2>
      <p>{added + removed + changed === 0 ? t("history.identical") : t("history.summary", { added, removed, changed })}</p>
      <p className="history-legend">
        {t("history.legend")} <ins>{t("history.legendIns")}</ins> <del>{t("history.legendDel")}</del>
      </p>
      <DiffList entries={diff.elements} />
    </section>
  );
}

/** Two sides to compare, as a GET form (works without JavaScript; the address can be shared). */
export function CompareForm({ articleId, versions, from, to }: { articleId: number; versions: VersionSummary[]; from: Side; to: Side }) {
  const { t } = useTranslation();
  const sideLabel = useSideLabel();
  const current = versions.find((v) => v.current)?.number;
  const value = (side: Side) => String(side === "published" ? (current ?? "draft") : side);
  const options = [
    <option key="draft" value="draft">
      {t("history.draft")}
    </option>,
    ...versions.map((v) => (
      <option key={v.number} value={v.number}>
        {sideLabel(v.number)}
        {v.current ? ` (${t("history.published")})` : ""}
      </option>
    )),
  ];
  return (
    <Form method="get" className="history-compare-form" aria-labelledby="history-compare-form-heading">
      <h2 id="history-compare-form-heading">{t("history.compareTitle")}</h2>
      <input type="hidden" name="id" value={articleId} />
      <div className="history-compare-form__fields">
        <div className="field">
          <label htmlFor="history-from">{t("history.from")}</label>
          <select id="history-from" name="from" defaultValue={value(from)} key={`from-${value(from)}`}>
            {options}
          </select>
        </div>
        <div className="field">
          <label htmlFor="history-to">{t("history.to")}</label>
          <select id="history-to" name="to" defaultValue={value(to)} key={`to-${value(to)}`}>
            {options}
          </select>
        </div>
        <button type="submit" className="button">
          {t("history.compare")}
        </button>
      </div>
    </Form>
  );
}
