// A throwaway copy of the repository for the deploy rehearsal: its own wrangler.toml files and scripts
// (so a run never edits the real ones), the rest linked (app, build, drizzle, drizzle-directory, node_modules, public).
import { cpSync, mkdirSync, mkdtempSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export const REPO = dirname(dirname(dirname(fileURLToPath(import.meta.url))));

export function makeSandbox() {
  const dir = mkdtempSync(join(tmpdir(), "muselingo-rehearsal-"));
  for (const file of ["wrangler.toml", "package.json", "tsconfig.json"]) cpSync(join(REPO, file), join(dir, file));
  cpSync(join(REPO, "scripts"), join(dir, "scripts"), { recursive: true });
  cpSync(join(REPO, "workers"), join(dir, "workers"), { recursive: true });
  for (const link of ["app", "build", "drizzle", "drizzle-directory", "node_modules", "public", "locales", "content"])
    symlinkSync(join(REPO, link), join(dir, link));
  mkdirSync(join(dir, ".wrangler"), { recursive: true });
  return dir;
}
