import { useState } from "react";
import { useTranslation } from "react-i18next";
import { LABEL_MAX_LENGTH } from "~/content/defaults";
import type { LinkElement } from "~/content/schema";
import { URL_MAX_LENGTH } from "~/content/urls";
import { isInvalidLink, normaliseLink } from "../field-values";
import { FontFields } from "../fields/font-fields";
import { LayoutFields } from "../fields/layout-fields";
import { TextField } from "../fields/text-field";
import { UploadField } from "../fields/upload-field";
import { useLatest } from "../fields/use-latest";
import type { FormProps } from "./form-props";
import { StyleFold } from "../fields/style-fold";

export function LinkForm({ element, onChange, articleId, id }: FormProps<LinkElement>) {
  const { t } = useTranslation();
  const latest = useLatest({ element, onChange });
  // Not while typing: "h" is not an address yet. The error shows once the field is left.
  const [typing, setTyping] = useState(false);
  // `example.org` becomes `https://example.org` on leaving the field, and a note says so (decision 069).
  const [completed, setCompleted] = useState<string | null>(null);
  const error = !typing && isInvalidLink(element.link) ? t("editor.fields.link.urlInvalid") : null;
  const noteId = `${id}-url-note`;
  return (
    <div className="ef-form">
      <TextField
        id={`${id}-url`}
        type="url"
        label={t("editor.fields.link.url")}
        hint={t("editor.fields.link.urlHint")}
        error={error}
        value={element.link}
        maxLength={URL_MAX_LENGTH}
        onChange={(link) => {
          setTyping(true);
          setCompleted(null);
          onChange({ ...element, link });
        }}
        onBlur={() => {
          setTyping(false);
          const current = latest.current.element;
          const link = normaliseLink(current.link);
          if (link === current.link.trim()) return;
          setCompleted(link);
          latest.current.onChange({ ...current, link });
        }}
      />
      <p id={noteId} className="ef-note" role="status">
        {completed !== null && completed === element.link ? t("editorErrors.linkCompleted", { link: completed }) : null}
      </p>
      <TextField
        id={`${id}-label`}
        label={t("editor.fields.link.label")}
        value={element.content}
        maxLength={LABEL_MAX_LENGTH}
        onChange={(content) => onChange({ ...element, content })}
      />
      <UploadField
        id={`${id}-image`}
        kind="image"
        label={t("editor.fields.link.image")}
        value={element.src}
        articleId={articleId}
        onUploaded={({ mediaUrl }) => latest.current.onChange({ ...latest.current.element, src: mediaUrl })}
        onClear={() => onChange({ ...element, src: "" })}
      />
      <StyleFold style={element}>
        <FontFields id={id} value={element} onChange={onChange} />
        <LayoutFields id={id} size={element.size} justify={element.justify} onChange={(layout) => onChange({ ...element, ...layout })} />
      </StyleFold>
    </div>
  );
}
