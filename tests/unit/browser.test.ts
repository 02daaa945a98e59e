import { describe, expect, it } from "vitest";
import { APT_INSTALL, findBrowser, installCommand, PLAYWRIGHT_INSTALL } from "../../scripts/browser.mjs";

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
