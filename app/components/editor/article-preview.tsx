import { useTranslation } from "react-i18next";
import { ArticleContentView, ArticleSurface } from "~/content/render";
import type { ContentElement } from "~/content/schema";

/**
 * The unsaved article in a phone-shaped frame, through the visitor page's own renderer. The language
 * button only shows where visitors find it: it does nothing here.
 */
export function ArticlePreview({ content }: { content: readonly ContentElement[] }) {
  const { t } = useTranslation();
  return (
    <section className="editor-preview" aria-labelledby="editor-preview-heading">
      <h2 id="editor-preview-heading">{t("editor.previewHeading")}</h2>
      <p className="muted editor-preview__help">{t("editor.previewHelp")}</p>
      <div className="phone">
        <ArticleSurface content={content} className="phone__screen">
          <ArticleContentView content={content} labels={{ opensInNewTab: t("visitor.opensInNewTab") }} />
        </ArticleSurface>
        <div className="phone__footer">
          <button type="button" className="phone__language" aria-disabled="true" onClick={(event) => event.preventDefault()}>
            {t("editor.language")}
          </button>
        </div>
      </div>
    </section>
  );
}
