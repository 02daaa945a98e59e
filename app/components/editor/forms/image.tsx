import { useTranslation } from "react-i18next";
import type { ImageElement } from "~/content/schema";
import { LayoutFields } from "../fields/layout-fields";
import { ImageWithAlt } from "../fields/image-with-alt";
import type { FormProps } from "./form-props";
import { StyleFold } from "../fields/style-fold";

export function ImageForm({ element, onChange, articleId, id }: FormProps<ImageElement>) {
  const { t } = useTranslation();
  return (
    <div className="ef-form">
      <ImageWithAlt id={id} label={t("editor.fields.image.file")} element={element} onChange={onChange} articleId={articleId} />
      <StyleFold style={element}>
        <LayoutFields id={id} size={element.size} justify={element.justify} onChange={(layout) => onChange({ ...element, ...layout })} />
      </StyleFold>
    </div>
  );
}
