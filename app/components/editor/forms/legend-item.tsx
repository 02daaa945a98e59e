import { useTranslation } from "react-i18next";
import { SIZE_MAX, SIZE_MIN, TEXT_MAX_LENGTH } from "~/content/defaults";
import { LEGEND_JUSTIFY_VALUES } from "~/content/model";
import type { LegendItemElement } from "~/content/schema";
import { FontFields } from "../fields/font-fields";
import { LayoutFields } from "../fields/layout-fields";
import { NumberField } from "../fields/number-field";
import { TextField } from "../fields/text-field";
import { ImageWithAlt } from "../fields/image-with-alt";
import type { FormProps } from "./form-props";
import { StyleFold } from "../fields/style-fold";

export function LegendItemForm({ element, onChange, articleId, id }: FormProps<LegendItemElement>) {
  const { t } = useTranslation();
  return (
    <div className="ef-form">
      <ImageWithAlt id={id} label={t("editor.fields.legendItem.image")} element={element} onChange={onChange} articleId={articleId} />
      <NumberField
        id={`${id}-width`}
        label={t("editor.fields.legendItem.width")}
        hint={t("editor.fields.legendItem.widthHint")}
        value={element.width}
        min={SIZE_MIN}
        max={SIZE_MAX}
        onChange={(width) => onChange({ ...element, width })}
      />
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
        <LayoutFields
          id={id}
          size={element.size}
          justify={element.justify}
          justifyLabel={t("editor.fields.legendItem.justify")}
          justifyOptions={LEGEND_JUSTIFY_VALUES.map((value) => ({ value, label: t(`editor.fields.legendItem.justifyOptions.${value}`) }))}
          onChange={(layout) => onChange({ ...element, ...layout })}
        />
      </StyleFold>
    </div>
  );
}
