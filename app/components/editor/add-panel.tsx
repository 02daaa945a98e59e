import { useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { ADDABLE_TYPES, isAddableType } from "~/content/model";
import type { AddableType } from "~/content/schema";
import { ADD_ID } from "./focus-machine";

/**
 * The spec's add-element panel: a type, then Add. No type chosen does nothing; a type the editor does not
 * know (only reachable by tampering with the page) gets the spec's alert.
 */
export function AddPanel({ onAdd }: { onAdd: (type: AddableType) => void }) {
  const { t } = useTranslation();
  const [type, setType] = useState("");

  function submit(event: FormEvent) {
    event.preventDefault();
    if (type === "") return;
    if (!isAddableType(type)) {
      window.alert(t("editor.invalidType", { types: ADDABLE_TYPES.map((known) => t(`editor.types.${known}`)).join(", ") }));
      return;
    }
    onAdd(type);
  }

  return (
    <form className="editor-add" onSubmit={submit} aria-labelledby="editor-add-heading">
      <h2 id="editor-add-heading">{t("editor.addHeading")}</h2>
      <div className="editor-add__row">
        <div className="field">
          <label htmlFor={ADD_ID}>{t("editor.addType")}</label>
          <select id={ADD_ID} value={type} onChange={(event) => setType(event.target.value)}>
            <option value="">{t("editor.chooseType")}</option>
            {ADDABLE_TYPES.map((known) => (
              <option key={known} value={known}>
                {t(`editor.types.${known}`)}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" className="button">
          {t("editor.add")}
        </button>
      </div>
    </form>
  );
}
