// The name a file had on the uploader's computer (issue 20, decision 078): kept so the editor
// can say "visite-salle-3.mp4 (12.4 MB)" instead of a storage path. Pure, shared by the upload and the
// archive import, so both keep names the same way.

/** The longest name kept, in characters (code points). */
export const ORIGINAL_NAME_MAX = 200;
const EXTENSION_MAX = 16;

// C0 and C1 controls and DEL, and the bidirectional embeddings, overrides and isolates: invisible, and the
// overrides can dress "photo\u202Egpj.exe" up as "photoexe.jpg". Right-to-left letters and marks stay.
const UNWANTED = /[\p{Cc}\u202A-\u202E\u2066-\u2069\uFEFF]/gu;

/**
 * A multipart `filename` as a name to show, or null when nothing is left. Browsers escape `"`, CR and LF in
 * it as %22, %0D and %0A (HTML's form encoding); those three are decoded, nothing else (a real "%41" stays).
 * Only the last path part is kept (old browsers sent "C:\\Users\\…\\clip.mp4"), then NFC, no controls, trimmed,
 * and at most ORIGINAL_NAME_MAX characters, cut in the stem so the extension survives.
 */
export function sanitiseOriginalName(raw: unknown): string | null {
  if (typeof raw !== "string") return null;
  let name = raw.replace(/%22/g, '"').replace(/%0[ad]/gi, "");
  name = name.split(/[/\\]/).pop() ?? "";
  name = name.normalize("NFC").replace(UNWANTED, "").trim();
  if (name === "" || name === "." || name === "..") return null;
  const chars = Array.from(name);
  if (chars.length <= ORIGINAL_NAME_MAX) return name;
  const dot = name.lastIndexOf(".");
  const extension = dot > 0 ? Array.from(name.slice(dot)) : [];
  if (extension.length > 1 && extension.length <= EXTENSION_MAX) {
    const stem = Array.from(name.slice(0, dot)).slice(0, ORIGINAL_NAME_MAX - extension.length - 1);
    return `${stem.join("").trimEnd()}…${extension.join("")}`;
  }
  return `${chars
    .slice(0, ORIGINAL_NAME_MAX - 1)
    .join("")
    .trimEnd()}…`;
}
