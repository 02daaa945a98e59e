/** Article content defaults shared by the API, the editor and the visitor page (spec §3, §9). */
export const DEFAULT_BACKGROUND_COLOR = "#341539";

export interface MetadatasElement {
  type: "metadatas";
  url: string;
  backgroundColor: string;
}

/** A new article's content: only the `metadatas` element, which always comes first and is not rendered. */
export function newArticleContent(slug: string): [MetadatasElement] {
  return [{ type: "metadatas", url: slug, backgroundColor: DEFAULT_BACKGROUND_COLOR }];
}
