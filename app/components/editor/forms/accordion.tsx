import { useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { LABEL_MAX_LENGTH, MAX_ACCORDION_DETAILS } from "~/content/defaults";
import { newElement } from "~/content/model";
import type { AccordionDetail, AccordionElement } from "~/content/schema";
import { moveUp, removeAt } from "../field-values";
import { FontFields } from "../fields/font-fields";
import { SelectField } from "../fields/select-field";
import { TextField } from "../fields/text-field";
import { DetailFields } from "./detail-fields";
import type { FormProps } from "./form-props";
import { StyleFold } from "../fields/style-fold";

export const DETAIL_TYPES = ["text", "image", "space", "link", "legendItem"] as const satisfies readonly AccordionDetail["type"][];
type DetailType = (typeof DETAIL_TYPES)[number];

/**
 * Keys that follow each detail through moves and deletions, so a detail's local state (a number being
 * typed, an upload in progress) stays with it. Details have no ids of their own; when the list changes
 * from outside (a reload), fresh keys are drawn.
 */
function useDetailKeys(length: number) {
  const counter = useRef(0);
  const draw = () => ++counter.current;
  const [keys, setKeys] = useState<number[]>(() => Array.from({ length }, draw));
  if (keys.length !== length) setKeys(Array.from({ length }, draw));
  return { keys: keys.length === length ? keys : Array.from({ length }, (_, i) => -1 - i), setKeys, draw };
}

export function AccordionForm({ element, onChange, articleId, id }: FormProps<AccordionElement>) {
  const { t } = useTranslation();
  const [addType, setAddType] = useState<DetailType>("text");
  const { keys, setKeys, draw } = useDetailKeys(element.details.length);
  const details = element.details;
  const full = details.length >= MAX_ACCORDION_DETAILS;
  const typeName = (type: DetailType) => t(`editor.fields.types.${type}`);

  const setDetails = (next: AccordionDetail[], nextKeys: number[]) => {
    setKeys(nextKeys);
    onChange({ ...element, details: next });
  };

  return (
    <div className="ef-form">
      <fieldset className="ef-group">
        <legend>{t("editor.fields.accordion.header")}</legend>
        <TextField
          id={`${id}-header`}
          label={t("editor.fields.accordion.headerText")}
          value={element.header.content}
          maxLength={LABEL_MAX_LENGTH}
          onChange={(content) => onChange({ ...element, header: { ...element.header, content } })}
        />
        <StyleFold style={element.header}>
          <FontFields id={`${id}-header`} value={element.header} onChange={(header) => onChange({ ...element, header })} />
        </StyleFold>
      </fieldset>
      <fieldset className="ef-group">
        <legend>{t("editor.fields.accordion.details")}</legend>
        {details.length === 0 ? <p className="muted">{t("editor.fields.accordion.empty")}</p> : null}
        <ol className="ef-details">
          {details.map((detail, index) => {
            const key = keys[index]!;
            const n = index + 1;
            // Ids by position (a refused `details.1.content` names its input, decision 069); React keys stay by identity.
            const detailId = `${id}-detail-${index}`;
            const detailLabel = t("editor.fields.accordion.detail", { n, type: typeName(detail.type) });
            return (
              <li key={key} className="ef-detail">
                <fieldset className="ef-group">
                  <legend>{detailLabel}</legend>
                  {/* Each name starts with the visible words, the detail's legend hidden after them (WCAG 2.5.3). */}
                  <div className="ef-actions">
                    <button
                      type="button"
                      className="button button--ghost ef-button"
                      disabled={index === 0}
                      onClick={() => setDetails(moveUp(details, index), moveUp(keys, index))}
                    >
                      {t("editor.fields.accordion.moveUp")}
                      <span className="visually-hidden"> — {detailLabel}</span>
                    </button>
                    <button
                      type="button"
                      className="button button--ghost ef-button ef-button--danger"
                      onClick={() => setDetails(removeAt(details, index), removeAt(keys, index))}
                    >
                      {t("editor.fields.accordion.delete")}
                      <span className="visually-hidden"> — {detailLabel}</span>
                    </button>
                  </div>
                  <DetailFields
                    element={detail}
                    articleId={articleId}
                    id={detailId}
                    onChange={(next) => onChange({ ...element, details: details.map((d, i) => (i === index ? next : d)) })}
                  />
                </fieldset>
              </li>
            );
          })}
        </ol>
        <div className="ef-add">
          <SelectField
            id={`${id}-add-type`}
            label={t("editor.fields.accordion.addType")}
            value={addType}
            options={DETAIL_TYPES.map((value) => ({ value, label: typeName(value) }))}
            onChange={setAddType}
            hint={full ? t("editor.fields.accordion.full", { max: MAX_ACCORDION_DETAILS }) : undefined}
          />
          <button type="button" className="button ef-button" disabled={full} onClick={() => setDetails([...details, newElement(addType)], [...keys, draw()])}>
            {t("editor.fields.accordion.add")}
          </button>
        </div>
      </fieldset>
    </div>
  );
}
