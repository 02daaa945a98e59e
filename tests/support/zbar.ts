import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

/**
 * zbar (`zbarimg`, Debian package zbar-tools), the decoder behind many scanning apps and the one that found
 * the white-on-black codes unreadable (issue 29, decision 115). Tests run it on what the app really serves
 * or prints; a machine without it fails them with the command that installs it, never skips them.
 */
export const ZBAR_MISSING = "zbarimg is not installed: run `sudo apt-get install -y zbar-tools` (Debian/Ubuntu package zbar-tools)";

/**
 * The QR codes zbarimg reads in a PNG, in its order, one string per code. As shipped, zbar does not try
 * inverted (light on dark) codes; `inverted: true` adds `-Stest-inverted`, which does.
 */
export function zbarDecode(png: Uint8Array, options: { inverted?: boolean } = {}): string[] {
  const dir = mkdtempSync(path.join(tmpdir(), "zbar-"));
  const file = path.join(dir, "image.png");
  writeFileSync(file, png);
  try {
    const args = ["--quiet", "--raw", "-Sdisable", "-Sqrcode.enable", ...(options.inverted ? ["-Stest-inverted"] : []), file];
    const run = spawnSync("zbarimg", args, { encoding: "utf8", timeout: 60_000 });
    if ((run.error as NodeJS.ErrnoException | undefined)?.code === "ENOENT") throw new Error(ZBAR_MISSING);
    if (run.error) throw run.error;
    // zbarimg exits 4 when it found no code in the image.
    if (run.status === 4) return [];
    if (run.status !== 0) throw new Error(`zbarimg exited ${run.status}: ${run.stderr}`);
    return run.stdout.split("\n").filter((line) => line.length > 0);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * zbarDecode for several PNGs in one zbarimg run (its XML output names the image each code came from): the
 * codes read in each image, in the images' order.
 */
export function zbarDecodeEach(pngs: Uint8Array[], options: { inverted?: boolean } = {}): string[][] {
  const dir = mkdtempSync(path.join(tmpdir(), "zbar-"));
  const files = pngs.map((png, i) => {
    const file = path.join(dir, `image-${i}.png`);
    writeFileSync(file, png);
    return file;
  });
  try {
    const args = ["--quiet", "--xml", "-Sdisable", "-Sqrcode.enable", ...(options.inverted ? ["-Stest-inverted"] : []), ...files];
    const run = spawnSync("zbarimg", args, { encoding: "utf8", timeout: 60_000 });
    if ((run.error as NodeJS.ErrnoException | undefined)?.code === "ENOENT") throw new Error(ZBAR_MISSING);
    if (run.error) throw run.error;
    // zbarimg exits 4 when an image had no code.
    if (run.status !== 0 && run.status !== 4) throw new Error(`zbarimg exited ${run.status}: ${run.stderr}`);
    const read = new Map<string, string[]>();
    for (const [, href, body] of run.stdout.matchAll(/<source href='([^']*)'>([\s\S]*?)<\/source>/g)) {
      read.set(
        href!,
        [...body!.matchAll(/<data><!\[CDATA\[([\s\S]*?)\]\]><\/data>/g)].map((m) => m[1]!),
      );
    }
    return files.map((file) => {
      const codes = read.get(file);
      if (!codes) throw new Error(`zbarimg said nothing about ${file}: ${run.stdout.slice(0, 500)}`);
      return codes;
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
