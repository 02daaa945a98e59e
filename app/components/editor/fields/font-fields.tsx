import { useTranslation } from "react-i18next";
import { FONT_SIZE_MAX, FONT_SIZE_MIN } from "~/content/defaults";
import { CheckboxField } from "./checkbox-field";
import { ColorField } from "./color-field";
import { NumberField } from "./number-field";

export interface FontStyle {
  fontSize: number;
  bold: boolean;
  italic: boolean;
  color: string;
}

interface FontFieldsProps<T extends FontStyle> {
  id: string;
  value: T;
  onChange: (next: T) => void;
}

/** Font size, bold, italic and colour: the style shared by text, link, legend item and accordion header. */
export function FontFields<T extends FontStyle>({ id, value, onChange }: FontFieldsProps<T>) {
  const { t } = useTranslation();
  const set = <K extends keyof FontStyle>(key: K, next: FontStyle[K]) => onChange({ ...value, [key]: next });
  return (
    <fieldset className="ef-group">
      <legend>{t("editor.fields.font.legend")}</legend>
      <NumberField
        id={`${id}-font-size`}
        label={t("editor.fields.font.size")}
        value={value.fontSize}
        min={FONT_SIZE_MIN}
        max={FONT_SIZE_MAX}
        onChange={(n) => set("fontSize", n)}
      />
      <div className="ef-checks">
        <CheckboxField id={`${id}-bold`} label={t("editor.fields.font.bold")} checked={value.bold} onChange={(b) => set("bold", b)} />
        <CheckboxField id={`${id}-italic`} label={t("editor.fields.font.italic")} checked={value.italic} onChange={(b) => set("italic", b)} />
      </div>
      <ColorField id={`${id}-color`} value={value.color} onChange={(c) => set("color", c)} />
    </fieldset>
  );
}
