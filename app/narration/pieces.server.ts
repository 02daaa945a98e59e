/**
 * The piece store of generated narrations in R2 (decision 106): the audio of every piece (a paragraph, or
 * part of a long one) is kept under `n/{museum}/p/{article}/{lang}/{hash}.{wav|mp3}`, the hash covering
 * engine, voice, format, language and the piece's NFC text (`pieceKey`). A regeneration after an edit reads
 * the unchanged paragraphs back and calls the engine for the changed ones only. One store per museum,
 * article and language: another museum's, article's or language's pieces are out of its reach. Pieces are
 * never served (`/narration/` serves only keys of the narrations table).
 */
import type { PieceStore } from "~/speech/engines";

export interface PieceScope {
  museumId: number;
  articleId: number;
  lang: string;
}

/** A piece key as `pieceKey` makes it: nothing else is read or written through the store. */
const PIECE_KEY = /^[0-9a-f]{64}\.(?:wav|mp3)$/;
/** At most this many list pages (1,000 keys each) are walked when pieces are cleaned. */
const LIST_PAGES = 10;

const CONTENT_TYPES: Record<string, string> = { wav: "audio/wav", mp3: "audio/mpeg" };

/** Where an article's pieces live, every language, or one. */
export function piecePrefix(museumId: number, articleId: number, lang?: string): string {
  if (!Number.isSafeInteger(museumId) || !Number.isSafeInteger(articleId)) throw new TypeError("piece scope ids must be integers");
  return `n/${museumId}/p/${articleId}/${lang === undefined ? "" : `${encodeURIComponent(lang)}/`}`;
}

function checkedKey(key: string): string {
  if (!PIECE_KEY.test(key)) throw new TypeError("not a narration piece key");
  return key;
}

/** The R2 piece store of one article's narration in one language. */
export function r2PieceStore(bucket: R2Bucket, scope: PieceScope): PieceStore {
  const prefix = piecePrefix(scope.museumId, scope.articleId, scope.lang);
  return {
    async get(key) {
      const object = await bucket.get(prefix + checkedKey(key));
      return object ? new Uint8Array(await object.arrayBuffer()) : null;
    },
    async put(key, bytes) {
      await bucket.put(prefix + checkedKey(key), bytes, {
        httpMetadata: { contentType: CONTENT_TYPES[key.slice(key.lastIndexOf(".") + 1)] ?? "application/octet-stream" },
      });
    },
  };
}

/** Deletes the keys under `prefix` that `keep` does not hold (walking at most LIST_PAGES pages); returns how many. */
async function deleteUnder(bucket: R2Bucket, prefix: string, keep: ReadonlySet<string> = new Set()): Promise<number> {
  let deleted = 0;
  let cursor: string | undefined;
  for (let page = 0; page < LIST_PAGES; page++) {
    const listed = await bucket.list({ prefix, cursor, limit: 1000 });
    const doomed = listed.objects.map((o) => o.key).filter((k) => !keep.has(k.slice(prefix.length)));
    if (doomed.length > 0) await bucket.delete(doomed);
    deleted += doomed.length;
    if (!listed.truncated) break;
    cursor = listed.cursor;
  }
  return deleted;
}

/**
 * After a narration was written: its language's pieces it is not made of go (an edited paragraph's old
 * audio, another voice's pieces). Returns how many were deleted.
 */
export function removeUnusedPieces(bucket: R2Bucket, scope: PieceScope, used: readonly string[]): Promise<number> {
  return deleteUnder(bucket, piecePrefix(scope.museumId, scope.articleId, scope.lang), new Set(used));
}

/** An article's pieces, in one language (a narration removed or to be read afresh) or all (a purge). */
export function deletePieces(bucket: R2Bucket, museumId: number, articleId: number, lang?: string): Promise<number> {
  return deleteUnder(bucket, piecePrefix(museumId, articleId, lang));
}
