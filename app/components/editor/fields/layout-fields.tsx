import { type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { SIZE_MAX, SIZE_MIN } from "~/content/defaults";
import { JUSTIFY_VALUES } from "~/content/model";
import { NumberField } from "./number-field";
import { SelectField } from "./select-field";

type Justify = (typeof JUSTIFY_VALUES)[number];

interface LayoutFieldsProps<J extends Justify> {
  id: string;
  size: number;
  justify: J;
  onChange: (next: { size: number; justify: J }) => void;
  /** The justify choices with their labels; the block's position left, centre or right by default. */
  justifyOptions?: readonly { value: J; label: string }[];
  justifyLabel?: string;
  justifyHint?: string;
  /** Extra fields of the same group (a text's alignment). */
  children?: ReactNode;
}

/** The maximum width in percent and the position in the row, common to every element but space. */
export function LayoutFields<J extends Justify>({ id, size, justify, onChange, justifyOptions, justifyLabel, justifyHint, children }: LayoutFieldsProps<J>) {
  const { t } = useTranslation();
  const options =
    justifyOptions ?? (JUSTIFY_VALUES.map((value) => ({ value, label: t(`editor.fields.layout.justifyOptions.${value}`) })) as { value: J; label: string }[]);
  return (
    <fieldset className="ef-group">
      <legend>{t("editor.fields.layout.legend")}</legend>
      <NumberField
        id={`${id}-size`}
        label={t("editor.fields.layout.size")}
        hint={t("editor.fields.layout.sizeHint")}
        value={size}
        min={SIZE_MIN}
        max={SIZE_MAX}
        onChange={(next) => onChange({ size: next, justify })}
      />
      <SelectField
        id={`${id}-justify`}
        label={justifyLabel ?? t("editor.fields.layout.justify")}
        hint={justifyHint}
        value={justify}
        options={options}
        onChange={(next) => onChange({ size, justify: next })}
      />
      {children}
    </fieldset>
  );
}
