import { useTranslation } from "react-i18next";
import { ALT_MAX_LENGTH } from "~/content/defaults";
import type { ImageElement } from "~/content/schema";
import { LayoutFields } from "../fields/layout-fields";
import { TextField } from "../fields/text-field";
import { UploadField } from "../fields/upload-field";
import { useLatest } from "../fields/use-latest";
import type { FormProps } from "./form-props";

export function ImageForm({ element, onChange, articleId, id }: FormProps<ImageElement>) {
  const { t } = useTranslation();
  const latest = useLatest({ element, onChange });
  return (
    <div className="ef-form">
      <UploadField
        id={`${id}-image`}
        kind="image"
        label={t("editor.fields.image.file")}
        value={element.src}
        articleId={articleId}
        onUploaded={({ mediaUrl }) => latest.current.onChange({ ...latest.current.element, src: mediaUrl })}
      />
      <TextField
        id={`${id}-alt`}
        label={t("editor.fields.image.alt")}
        hint={t("editor.fields.image.altHint")}
        value={element.alt}
        maxLength={ALT_MAX_LENGTH}
        onChange={(alt) => onChange({ ...element, alt })}
      />
      <LayoutFields id={id} size={element.size} justify={element.justify} onChange={(layout) => onChange({ ...element, ...layout })} />
    </div>
  );
}
