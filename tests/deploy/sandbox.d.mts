export const REPO: string;
/** A throwaway copy of the repository (own wrangler.toml files and scripts); returns its path. */
export function makeSandbox(): string;
