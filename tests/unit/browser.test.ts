import { describe, expect, it } from "vitest";
import { APT_INSTALL, ensureBrowser, findBrowser, installCommand, PLAYWRIGHT_INSTALL } from "../../scripts/browser.mjs";

// The file system is injected: `files` exist, `dirs` list their entries. Nothing is installed here.
function fakeFs(files: string[], dirs: Record<string, string[]> = {}) {
  return { exists: (path: string) => files.includes(path), list: (dir: string) => dirs[dir] ?? [] };
}
const home = "/home/ada";
const cache = "/home/ada/.cache/ms-playwright";

describe("findBrowser", () => {
  it("prefers CHROME_PATH over everything else", () => {
    const fs = fakeFs(["/opt/chrome", "/usr/bin/chromium"]);
    expect(findBrowser({ env: { CHROME_PATH: "/opt/chrome" }, home, ...fs })).toEqual({ path: "/opt/chrome", source: "CHROME_PATH" });
  });

  it("refuses a CHROME_PATH that points nowhere instead of quietly using another browser", () => {
    const fs = fakeFs(["/usr/bin/chromium"]);
    expect(() => findBrowser({ env: { CHROME_PATH: "/nope" }, home, ...fs })).toThrow("CHROME_PATH is set to /nope");
  });

  it("then uses Debian's chromium", () => {
    const fs = fakeFs(["/usr/bin/chromium", `${cache}/chromium-1200/chrome-linux64/chrome`], { [cache]: ["chromium-1200"] });
    expect(findBrowser({ env: {}, home, ...fs })?.path).toBe("/usr/bin/chromium");
  });

  it("then the newest chromium in Playwright's cache, in either folder layout", () => {
    const fs = fakeFs([`${cache}/chromium-999/chrome-linux/chrome`, `${cache}/chromium-1200/chrome-linux64/chrome`], {
      [cache]: ["ffmpeg-1011", "chromium-999", "chromium-1200", "chromium_headless_shell-1200"],
    });
    expect(findBrowser({ env: {}, home, ...fs })).toEqual({ path: `${cache}/chromium-1200/chrome-linux64/chrome`, source: "Playwright's cache" });
    const old = fakeFs([`${cache}/chromium-999/chrome-linux/chrome`], { [cache]: ["chromium-999"] });
    expect(findBrowser({ env: {}, home, ...old })?.path).toBe(`${cache}/chromium-999/chrome-linux/chrome`);
  });

  it("looks in PLAYWRIGHT_BROWSERS_PATH when it is set", () => {
    const fs = fakeFs(["/srv/pw/chromium-1200/chrome-linux64/chrome"], { "/srv/pw": ["chromium-1200"] });
    expect(findBrowser({ env: { PLAYWRIGHT_BROWSERS_PATH: "/srv/pw" }, home, ...fs })?.path).toBe("/srv/pw/chromium-1200/chrome-linux64/chrome");
  });

  it("returns null when there is no browser at all (a folder without the binary does not count)", () => {
    const fs = fakeFs([], { [cache]: ["chromium-1200"] });
    expect(findBrowser({ env: {}, home, ...fs })).toBeNull();
  });
});

describe("findBrowser for the end-to-end tests (shell: true, decision 139)", () => {
  it("prefers Debian's headless shell, then the newest shell in Playwright's cache, then a full chromium", () => {
    const both = fakeFs(["/usr/bin/chromium", "/usr/bin/chromium-headless-shell"]);
    expect(findBrowser({ env: {}, home, ...both, shell: true })).toEqual({
      path: "/usr/bin/chromium-headless-shell",
      source: "Debian's chromium-headless-shell",
    });
    // Without `shell`, the full browser as before (Lighthouse, the screenshots, the demo video).
    expect(findBrowser({ env: {}, home, ...both })?.path).toBe("/usr/bin/chromium");
    const cached = fakeFs(
      [
        "/usr/bin/chromium",
        `${cache}/chromium_headless_shell-1199/chrome-headless-shell-linux64/chrome-headless-shell`,
        `${cache}/chromium_headless_shell-1200/chrome-headless-shell-linux64/chrome-headless-shell`,
      ],
      { [cache]: ["chromium-1200", "chromium_headless_shell-1199", "chromium_headless_shell-1200"] },
    );
    expect(findBrowser({ env: {}, home, ...cached, shell: true })?.path).toBe(
      `${cache}/chromium_headless_shell-1200/chrome-headless-shell-linux64/chrome-headless-shell`,
    );
    expect(findBrowser({ env: {}, home, ...fakeFs(["/usr/bin/chromium"]), shell: true })?.path).toBe("/usr/bin/chromium");
    // CHROME_PATH still wins.
    expect(findBrowser({ env: { CHROME_PATH: "/opt/chrome" }, home, ...fakeFs(["/opt/chrome", "/usr/bin/chromium-headless-shell"]), shell: true })?.path).toBe(
      "/opt/chrome",
    );
  });
});

describe("installCommand", () => {
  it("uses Debian's package as root and Playwright's download otherwise", () => {
    expect(installCommand({ isRoot: true, hasApt: true })).toBe(APT_INSTALL);
    expect(APT_INSTALL).toBe("apt-get update && apt-get install -y chromium chromium-headless-shell");
    expect(installCommand({ isRoot: false, hasApt: true })).toBe(PLAYWRIGHT_INSTALL);
    expect(installCommand({ isRoot: true, hasApt: false })).toBe(PLAYWRIGHT_INSTALL);
  });
});

describe("ensureBrowser: the headless shell, and a full chromium beside it", () => {
  const SHELL = "/usr/bin/chromium-headless-shell";
  const FULL = "/usr/bin/chromium";
  /** `findBrowser` on a machine with `files`; after a successful install, with `installed` too. */
  function machine(files: string[], installed: string[] = []) {
    const ran: string[] = [];
    let now = files;
    const find = (options?: { shell?: boolean }) => findBrowser({ ...options, env: {}, home, ...fakeFs(now) });
    const run = (command: string) => {
      ran.push(command);
      now = [...files, ...installed];
      return installed.length > 0 ? 0 : 1;
    };
    return { ran, find, run };
  }
  const log = () => {};

  it("installs nothing when both are there, and answers the shell", () => {
    const m = machine([SHELL, FULL]);
    expect(ensureBrowser({ ...m, log })).toEqual({ path: SHELL, source: "Debian's chromium-headless-shell" });
    expect(m.ran).toEqual([]);
  });

  it("installs when only the headless shell is there (one file and Lighthouse need the full browser)", () => {
    const m = machine([SHELL], [FULL]);
    expect(ensureBrowser({ ...m, log }).path).toBe(SHELL);
    expect(m.ran).toEqual([installCommand()]);
  });

  it("a full chromium alone is enough: every file runs in it, as before the shell", () => {
    const m = machine([FULL]);
    expect(ensureBrowser({ ...m, log }).path).toBe(FULL);
    expect(m.ran).toEqual([]);
  });

  it("throws with the command when the install brings nothing", () => {
    const m = machine([SHELL]);
    expect(() => ensureBrowser({ ...m, log })).toThrow(installCommand());
    expect(m.ran).toHaveLength(1);
  });
});
