export const DEBIAN_CHROMIUM: string;
export const DEBIAN_HEADLESS_SHELL: string;
export const CHROMIUM_ARGS: string[];
export const APT_INSTALL: string;
export const PLAYWRIGHT_INSTALL: string;
export type FoundBrowser = { path: string; source: string };
export function playwrightCache(env?: Record<string, string | undefined>, home?: string): string;
export function findBrowser(options?: {
  env?: Record<string, string | undefined>;
  home?: string;
  exists?: (path: string) => boolean;
  list?: (dir: string) => string[];
  /** The end-to-end tests' choice: a headless shell before a full browser (decision 139). */
  shell?: boolean;
}): FoundBrowser | null;
export function installCommand(options?: { isRoot?: boolean; hasApt?: boolean }): string;
export function ensureBrowser(options?: {
  cwd?: string;
  log?: (message: string) => void;
  find?: (options?: { shell?: boolean }) => FoundBrowser | null;
  /** Runs the install command; its exit status. */
  run?: (command: string) => number | null;
}): FoundBrowser;
