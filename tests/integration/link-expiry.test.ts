import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { get, staffSession } from "./helpers";
import { invite, pathOf, uniqueEmail } from "./team-helpers";

// An invitation's expiry is one time, with its zone, on /team and on the invitation page (decision 124): it
// showed 22:20 on /team (the museum's zone, unnamed) and 9:20 PM on the page (UTC, unnamed).

const expiryOn = (html: string, label: string) => {
  const found = new RegExp(`${label} ([^<]+)<`).exec(html.replaceAll("&nbsp;", "\u00a0"));
  expect(found, label).not.toBeNull();
  return found![1]!.split(" · ")[0]!.trim();
};

/** The wall clock hour and minute of `at` in `timeZone`, as digits. */
function wallClock(at: number, timeZone: string): { hour: number; minute: string } {
  const parts = new Intl.DateTimeFormat("en-GB", { timeZone, hour: "2-digit", minute: "2-digit", hourCycle: "h23" }).formatToParts(new Date(at));
  return { hour: Number(parts.find((p) => p.type === "hour")!.value), minute: parts.find((p) => p.type === "minute")!.value };
}

describe("an invitation's expiry", () => {
  for (const timeZone of ["Europe/Paris", "America/New_York", "Asia/Kolkata"]) {
    it(`is the same time with its zone on /team and on the invitation page (${timeZone})`, async () => {
      const admin = await staffSession();
      await env.DB.prepare("UPDATE museums SET timezone = ? WHERE id = ?").bind(timeZone, admin.user.museumId).run();
      const invited = await invite(admin, { email: uniqueEmail("guest"), role: "editor" });
      expect(invited.status).toBe(200);
      const { expiresAt } = invited.body as { expiresAt: number };
      const { hour, minute } = wallClock(expiresAt, timeZone);
      for (const [lang, label, clock, zone] of [
        ["fr", "Expire le", `${String(hour).padStart(2, "0")}:${minute}`, /UTC[+−-]\d/],
        ["en", "Expires on", `${hour % 12 || 12}:${minute}\u202f${hour < 12 ? "AM" : "PM"}`, /GMT[+−-]\d|E[SD]T/],
      ] as const) {
        const team = await get("/team", admin.cookie, { "Accept-Language": lang });
        const page = await get(pathOf(invited.body.invitationUrl as string), undefined, { "Accept-Language": lang });
        expect([team.status, page.status]).toEqual([200, 200]);
        const onTeam = expiryOn(await team.text(), label);
        const onPage = expiryOn(await page.text(), label);
        expect(onPage, lang).toBe(onTeam);
        const spaces = (text: string) => text.replace(/[\u202f\u00a0]/g, " ");
        expect(spaces(onTeam), lang).toContain(spaces(clock));
        expect(onTeam, lang).toMatch(zone);
      }
    });
  }
});
