export const LOOPBACK_MARKER: string;
export class LoopbackPatchError extends Error {}
export function patchMiniflareLoopback(indexPath: string): "patched" | "already-patched";
export function defaultMiniflareIndex(): string;
