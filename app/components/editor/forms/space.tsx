import { useTranslation } from "react-i18next";
import { SIZE_MAX, SIZE_MIN } from "~/content/defaults";
import type { SpaceElement } from "~/content/schema";
import { NumberField } from "../fields/number-field";
import type { FormProps } from "./form-props";

export function SpaceForm({ element, onChange, id }: FormProps<SpaceElement>) {
  const { t } = useTranslation();
  return (
    <div className="ef-form">
      <NumberField
        id={`${id}-height`}
        label={t("editor.fields.space.height")}
        value={element.size}
        min={SIZE_MIN}
        max={SIZE_MAX}
        onChange={(size) => onChange({ ...element, size })}
      />
    </div>
  );
}
