import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { DEFAULT_BACKGROUND_COLOR, SLUG_MAX_LENGTH } from "~/content/defaults";
import type { MetadatasElement } from "~/content/schema";
import { NAME_MAX_LENGTH } from "~/lib/names";
import { sixDigitHex } from "./editor-state";

interface SettingsFieldsProps {
  name: string;
  metadatas: MetadatasElement;
  errors: { name?: string; slug?: string; colour?: string };
  onName: (name: string) => void;
  onMetadatas: (next: MetadatasElement) => void;
  /** Fields saved on their own that belong with these (the stop number, issue 21), after the colour. */
  children?: ReactNode;
}

/** Private name, public address and background colour: what the spec calls the article's own fields. */
export function SettingsFields({ name, metadatas, errors, onName, onMetadatas, children }: SettingsFieldsProps) {
  const { t } = useTranslation();
  const describedBy = (help: string, error?: string) => (error ? `${help} ${help}-error` : help);
  return (
    <section className="editor-settings" aria-labelledby="editor-settings-heading">
      <h2 id="editor-settings-heading">{t("editor.settingsHeading")}</h2>
      <div className="field">
        <label htmlFor="editor-name">{t("editor.name")}</label>
        <input
          id="editor-name"
          value={name}
          maxLength={NAME_MAX_LENGTH}
          required
          aria-invalid={errors.name ? true : undefined}
          aria-describedby={describedBy("editor-name-help", errors.name)}
          onChange={(event) => onName(event.target.value)}
        />
        <small id="editor-name-help">{t("editor.nameHelp")}</small>
        {errors.name ? (
          <p className="field__error" id="editor-name-help-error">
            {errors.name}
          </p>
        ) : null}
      </div>
      <div className="field">
        <label htmlFor="editor-slug">{t("editor.slug")}</label>
        <input
          id="editor-slug"
          value={metadatas.url}
          maxLength={SLUG_MAX_LENGTH}
          required
          autoCapitalize="none"
          autoCorrect="off"
          spellCheck={false}
          aria-invalid={errors.slug ? true : undefined}
          aria-describedby={describedBy("editor-slug-help", errors.slug)}
          onChange={(event) => onMetadatas({ ...metadatas, url: event.target.value })}
        />
        <small id="editor-slug-help">{t("editor.slugHelp")}</small>
        {errors.slug ? (
          <p className="field__error" id="editor-slug-help-error" role="alert">
            {errors.slug}
          </p>
        ) : null}
      </div>
      <fieldset className="editor-colour">
        <legend>{t("editor.background")}</legend>
        <div className="editor-colour__inputs">
          <input
            type="color"
            id="editor-colour"
            aria-label={t("editor.background")}
            value={sixDigitHex(metadatas.backgroundColor, DEFAULT_BACKGROUND_COLOR)}
            onChange={(event) => onMetadatas({ ...metadatas, backgroundColor: event.target.value })}
          />
          <div className="field">
            <label htmlFor="editor-colour-hex">{t("editor.backgroundHex")}</label>
            <input
              id="editor-colour-hex"
              value={metadatas.backgroundColor}
              maxLength={7}
              spellCheck={false}
              autoCapitalize="none"
              aria-invalid={errors.colour ? true : undefined}
              aria-describedby={describedBy("editor-colour-help", errors.colour)}
              onChange={(event) => onMetadatas({ ...metadatas, backgroundColor: event.target.value.trim() })}
            />
          </div>
        </div>
        <small id="editor-colour-help" className="muted">
          {t("editor.backgroundHelp")}
        </small>
        {errors.colour ? (
          <p className="field__error" id="editor-colour-help-error" role="alert">
            {errors.colour}
          </p>
        ) : null}
      </fieldset>
      {children}
    </section>
  );
}
