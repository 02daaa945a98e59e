/** Article content defaults and limits shared by the API, the editor and the visitor page (spec §3, §9). */
import type { MetadatasElement } from "./schema";

export type { MetadatasElement };

export const DEFAULT_BACKGROUND_COLOR = "#341539";
export const DEFAULT_TEXT_COLOR = "#ffffff";
export const DEFAULT_FONT_SIZE = 16;
/** `size` of every element but space: a maximum width in percent. */
export const DEFAULT_SIZE = 100;
export const SIZE_MIN = 1;
export const SIZE_MAX = 100;
/** space: `size` is a height in px, within the same 1–100 range as every size input (spec §5). */
export const DEFAULT_SPACE_HEIGHT = 40;
export const DEFAULT_LEGEND_WIDTH = 30;
export const FONT_SIZE_MIN = 1;
export const FONT_SIZE_MAX = 100;
/** The heading element's levels: under the page's `<h1>` (the article's name), sections and subsections. */
export const HEADING_LEVELS = [2, 3] as const;
export const VIDEO_ID_LENGTH = 6;

export const TEXT_MAX_LENGTH = 20_000;
export const LABEL_MAX_LENGTH = 1_000;
/** A heading is one line (decision 074): long enough for a real title, short enough to stay one. */
export const HEADING_MAX_LENGTH = 300;
export const ALT_MAX_LENGTH = 500;
export const SLUG_MAX_LENGTH = 80;
export const MAX_ELEMENTS = 500;
export const MAX_ACCORDION_DETAILS = 100;

/** A new article's content: only the `metadatas` element, which always comes first and is not rendered. */
export function newArticleContent(slug: string): [MetadatasElement] {
  return [{ type: "metadatas", url: slug, backgroundColor: DEFAULT_BACKGROUND_COLOR }];
}
