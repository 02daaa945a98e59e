// Where an element list refers to uploaded files: every `/media/…` string with the path of the field that
// holds it, so a refusal can name the field (`newContent.3.details.1.src`). Pure: the content model's rules
// only; which museum a file belongs to is the models' question (app/models/media.server.ts).
import { MEDIA_PREFIX } from "./urls";

export interface MediaReference {
  /** The field's path inside the walked value, its parts joined by dots (`3.src`, `5.details.1.src`). */
  field: string;
  /** The `/media/…` address as written. */
  src: string;
}

/** Nesting deeper than any content the model accepts (an accordion's details are the deepest, at 3). */
const MAX_DEPTH = 8;

/** The content model's fields that hold a file's address (an image's, a legend item's, a link's picture, a video and its subtitles). */
const MEDIA_FIELDS = new Set(["src", "subtitles"]);

/**
 * Every `/media/…` address in `value`, in document order: the strings of its media fields (`src`,
 * `subtitles`), at any depth; a text that happens to start with "/media/" is text, not a reference.
 */
export function mediaReferences(value: unknown): MediaReference[] {
  const found: MediaReference[] = [];
  const visit = (item: unknown, path: string, depth: number) => {
    if (typeof item === "string") {
      const key = path.slice(path.lastIndexOf(".") + 1);
      if (MEDIA_FIELDS.has(key) && item.startsWith(MEDIA_PREFIX) && item.length > MEDIA_PREFIX.length) found.push({ field: path, src: item });
      return;
    }
    if (depth >= MAX_DEPTH || item === null || typeof item !== "object") return;
    const join = (key: string | number) => (path === "" ? String(key) : `${path}.${key}`);
    if (Array.isArray(item)) item.forEach((child, i) => visit(child, join(i), depth + 1));
    else for (const [key, child] of Object.entries(item)) visit(child, join(key), depth + 1);
  };
  visit(value, "", 0);
  return found;
}
