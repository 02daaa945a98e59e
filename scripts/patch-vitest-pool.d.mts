export const MARKER: string;
export const EDITS: readonly { file: string; name: string; find: string; replace: string; count?: number }[];
export class PatchError extends Error {}
export function patchVitestPoolWorkers(packageDir: string): "patched" | "already-patched" | "upstream-fixed";
export function defaultPackageDir(): string;
export function encodeRedirectLocation(filePath: string): string;
export function decodeEncodedSpecifier(value: string): string;
export function encodeHeaderValue(value: string): string;
