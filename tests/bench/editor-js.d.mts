// Types of editor-js.mjs, for tests/unit/client-strings.test.ts.
export const BUDGET_KIB: number;
export type ViteManifest = Record<string, { file: string; name?: string; src?: string; imports?: string[]; dynamicImports?: string[] }>;
export interface Sized {
  file: string;
  raw: number;
  gzip: number;
}
export function viteClientManifest(): ViteManifest;
export function pageFiles(manifest: ViteManifest, sources: string[]): { files: string[]; lazy: string[] };
export function gzipSize(file: string): { raw: number; gzip: number };
export function localeChunk(manifest: ViteManifest, lng: string): string | null;
export function measurePage(
  manifest: ViteManifest,
  routeSrc: string,
  lng?: string,
): { rows: Sized[]; total: { raw: number; gzip: number }; strings: Sized | null; withStrings: { raw: number; gzip: number }; lazy: string[] };
