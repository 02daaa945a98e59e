// The browser's half of an import (decision 055): the request that reaches the Worker stays under Cloudflare's
// 100 MB body limit. A ZIP holding the sheet is split here into the sheet and the pictures; pictures over the
// upload limit are resized with the editor's resizer (same names, so the sheet still finds them); everything
// is packed again without compression (pictures are compressed already). Past IMAGES_MAX_BYTES the person is
// asked to split the sheet.
import { unzip, zipSync, type Unzipped } from "fflate";
import { fitImage } from "~/components/editor/image-resize";
import { IMAGE_MAX_BYTES } from "~/components/editor/image-fit";

/** Mirrors the server's `images` part limit (app/import/receive.server.ts). */
export const IMAGES_MAX_BYTES = 88 * 1024 * 1024;

export type Prepared = { ok: true; file: File; images: Blob | null; resized: number } | { ok: false; problem: "too_large" | "unreadable" | "no_sheet" };

const SHEET = /\.(csv|tsv|txt|xlsx|ods)$/i;
const SKIPPED = /(^|\/)(__MACOSX\/|\.DS_Store$|Thumbs\.db$)|\/$/;

async function isPlainZip(file: File): Promise<boolean> {
  if (/\.(xlsx|ods)$/i.test(file.name)) return false;
  const head = new Uint8Array(await file.slice(0, 4).arrayBuffer());
  return head[0] === 0x50 && head[1] === 0x4b && head[2] === 0x03 && head[3] === 0x04;
}

function unzipFile(file: File): Promise<Unzipped> {
  return file
    .arrayBuffer()
    .then((buffer) => new Promise((resolve, reject) => unzip(new Uint8Array(buffer), (error, data) => (error ? reject(error) : resolve(data)))));
}

export async function prepareImport(file: File, images: File | null, onProgress: (done: number, total: number) => void): Promise<Prepared> {
  let sheet = file;
  const entries: Unzipped = {};
  try {
    if (await isPlainZip(file)) {
      const bundle = await unzipFile(file);
      // A workbook whatever its name (an XLSX's content types, an OpenDocument file's `mimetype`) goes as it is.
      if (!("[Content_Types].xml" in bundle || "mimetype" in bundle)) {
        const sheets = Object.keys(bundle).filter((name) => SHEET.test(name) && !SKIPPED.test(name));
        if (sheets.length !== 1) return { ok: false, problem: "no_sheet" };
        sheet = new File([bundle[sheets[0]!]!], sheets[0]!.slice(sheets[0]!.lastIndexOf("/") + 1));
        for (const [name, data] of Object.entries(bundle)) if (name !== sheets[0] && !SKIPPED.test(name)) entries[name] = data;
      }
    }
    if (images) Object.assign(entries, await unzipFile(images));
  } catch {
    return { ok: false, problem: "unreadable" };
  }
  const names = Object.keys(entries).filter((name) => !SKIPPED.test(name));
  if (names.length === 0) return { ok: true, file: sheet, images: null, resized: 0 };
  let resized = 0;
  const packed: Record<string, [Uint8Array, { level: 0 }]> = {};
  for (const [i, name] of names.entries()) {
    onProgress(i, names.length);
    let data = entries[name]!;
    if (data.length > IMAGE_MAX_BYTES) {
      const fitted = await fitImage(new File([data], name));
      // One that cannot be resized goes as it is: the server names its row.
      if (fitted) {
        data = new Uint8Array(await fitted.arrayBuffer());
        resized++;
      }
    }
    packed[name] = [data, { level: 0 }];
  }
  onProgress(names.length, names.length);
  const zip = zipSync(packed);
  if (zip.length > IMAGES_MAX_BYTES) return { ok: false, problem: "too_large" };
  return { ok: true, file: sheet, images: new Blob([zip], { type: "application/zip" }), resized };
}
