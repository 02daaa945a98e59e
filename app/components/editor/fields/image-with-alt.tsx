import { useTranslation } from "react-i18next";
import { ALT_MAX_LENGTH } from "~/content/defaults";
import { TextField } from "./text-field";
import { UploadField } from "./upload-field";
import { useLatest } from "./use-latest";

/** An image upload and its alternative text: the pair images and legend items share. */
export function ImageWithAlt<E extends { src: string; alt: string }>(props: {
  id: string;
  label: string;
  element: E;
  onChange: (next: E) => void;
  articleId: number;
}) {
  const { id, label, element, onChange, articleId } = props;
  const { t } = useTranslation();
  const latest = useLatest({ element, onChange });
  return (
    <>
      <UploadField
        id={`${id}-image`}
        kind="image"
        label={label}
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
    </>
  );
}
