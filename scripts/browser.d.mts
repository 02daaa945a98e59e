export const DEBIAN_CHROMIUM: string;
export const APT_INSTALL: string;
export const PLAYWRIGHT_INSTALL: string;
export type FoundBrowser = { path: string; source: string };
export function playwrightCache(env?: Record<string, string | undefined>, home?: string): string;
export function findBrowser(options?: {
  env?: Record<string, string | undefined>;
  home?: string;
  exists?: (path: string) => boolean;
  list?: (dir: string) => string[];
}): FoundBrowser | null;
export function installCommand(options?: { isRoot?: boolean; hasApt?: boolean }): string;
export function ensureBrowser(options?: { cwd?: string; log?: (message: string) => void }): FoundBrowser;
