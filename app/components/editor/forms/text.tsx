import { useTranslation } from "react-i18next";
import { TEXT_MAX_LENGTH } from "~/content/defaults";
import { ALIGN_VALUES } from "~/content/model";
import type { TextElement } from "~/content/schema";
import { FontFields } from "../fields/font-fields";
import { LayoutFields } from "../fields/layout-fields";
import { SelectField } from "../fields/select-field";
import { TextField } from "../fields/text-field";
import type { FormProps } from "./form-props";
import { StyleFold } from "../fields/style-fold";

export function TextForm({ element, onChange, id }: FormProps<TextElement>) {
  const { t } = useTranslation();
  return (
    <div className="ef-form">
      <TextField
        id={`${id}-content`}
        label={t("editor.fields.text.content")}
        value={element.content}
        maxLength={TEXT_MAX_LENGTH}
        multiline
        onChange={(content) => onChange({ ...element, content })}
      />
      <StyleFold style={element}>
        <FontFields id={id} value={element} onChange={onChange} />
        <LayoutFields id={id} size={element.size} justify={element.justify} onChange={(layout) => onChange({ ...element, ...layout })}>
          <SelectField
            id={`${id}-align`}
            label={t("editor.fields.text.align")}
            value={element.align}
            options={ALIGN_VALUES.map((value) => ({ value, label: t(`editor.fields.text.alignOptions.${value}`) }))}
            onChange={(align) => onChange({ ...element, align })}
          />
        </LayoutFields>
      </StyleFold>
    </div>
  );
}
