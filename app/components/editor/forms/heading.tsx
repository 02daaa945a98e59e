import { useTranslation } from "react-i18next";
import { HEADING_LEVELS, HEADING_MAX_LENGTH } from "~/content/defaults";
import { ALIGN_VALUES } from "~/content/model";
import type { HeadingElement } from "~/content/schema";
import { ColorField } from "../fields/color-field";
import { SelectField } from "../fields/select-field";
import { TextField } from "../fields/text-field";
import type { FormProps } from "./form-props";

/**
 * A section heading (decision 074): its one line of text first (a new heading is typed into at once), its
 * level (a part or a subpart under the article's name), then its alignment and colour, as a text's.
 */
export function HeadingForm({ element, onChange, id }: FormProps<HeadingElement>) {
  const { t } = useTranslation();
  return (
    <div className="ef-form">
      <TextField
        id={`${id}-content`}
        label={t("heading.content")}
        value={element.content}
        maxLength={HEADING_MAX_LENGTH}
        // One line: a pasted line break becomes a space, as the page shows it.
        onChange={(content) => onChange({ ...element, content: content.replace(/\s*[\r\n\u2028\u2029]+\s*/g, " ") })}
      />
      <SelectField
        id={`${id}-level`}
        label={t("heading.level")}
        hint={t("heading.levelHint")}
        value={String(element.level) as `${HeadingElement["level"]}`}
        options={HEADING_LEVELS.map((level) => ({ value: String(level) as `${HeadingElement["level"]}`, label: t(`heading.levels.${level}`) }))}
        onChange={(level) => onChange({ ...element, level: level === "3" ? 3 : 2 })}
      />
      <SelectField
        id={`${id}-align`}
        label={t("editor.fields.text.align")}
        value={element.align}
        options={ALIGN_VALUES.map((value) => ({ value, label: t(`editor.fields.text.alignOptions.${value}`) }))}
        onChange={(align) => onChange({ ...element, align })}
      />
      <ColorField id={`${id}-color`} value={element.color} onChange={(color) => onChange({ ...element, color })} />
    </div>
  );
}
