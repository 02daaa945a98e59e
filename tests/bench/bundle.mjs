// Bundles a TypeScript module of the app (with its `~/` paths) into `work` and imports it, so the benches
// use the app's own code (segmentation, hashing, the consumer) rather than a copy.
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { build as esbuild } from "esbuild";
import { ROOT } from "../../scripts/lib.mjs";

export async function importBundled(entry, work, name) {
  const outfile = join(work, `${name}.mjs`);
  await esbuild({
    entryPoints: [join(ROOT, entry)],
    bundle: true,
    format: "esm",
    platform: "node",
    tsconfig: join(ROOT, "tsconfig.json"),
    outfile,
    logLevel: "error",
  });
  return import(pathToFileURL(outfile).href);
}
