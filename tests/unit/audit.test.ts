import { describe, expect, it } from "vitest";
import { actionsOf, auditQuerySchema, isCalendarDay } from "~/audit/audit-input";
import { AUDIT_ACTIONS } from "~/audit/actions";
import { csvCell, csvRow, detailText } from "~/audit/csv";
import { wallClock } from "~/lib/zoned-time";
import { dayStart, nextDay } from "~/audit/query.server";

describe("audit days in the museum's time zone", () => {
  it("starts a day at local midnight, across daylight saving changes", () => {
    expect(dayStart("2026-03-10", "Europe/Paris")).toBe(Date.UTC(2026, 2, 9, 23));
    // Paris moves to summer time on 29 March 2026 at 02:00: that day starts in winter time, the next in summer time.
    expect(dayStart("2026-03-29", "Europe/Paris")).toBe(Date.UTC(2026, 2, 28, 23));
    expect(dayStart("2026-03-30", "Europe/Paris")).toBe(Date.UTC(2026, 2, 29, 22));
    expect(dayStart("2026-10-25", "Europe/Paris")).toBe(Date.UTC(2026, 9, 24, 22));
    expect(dayStart("2026-10-26", "Europe/Paris")).toBe(Date.UTC(2026, 9, 25, 23));
    expect(dayStart("2026-07-01", "America/New_York")).toBe(Date.UTC(2026, 6, 1, 4));
    expect(dayStart("2026-07-01", "Asia/Kolkata")).toBe(Date.UTC(2026, 5, 30, 18, 30));
    expect(dayStart("2026-07-01", "Pacific/Kiritimati")).toBe(Date.UTC(2026, 5, 30, 10));
    expect(dayStart("2026-07-01", "UTC")).toBe(Date.UTC(2026, 6, 1));
    expect(dayStart("2026-07-01", "Not/AZone")).toBe(Date.UTC(2026, 6, 1));
  });

  it("knows the next day and real calendar days", () => {
    expect(nextDay("2026-12-31")).toBe("2027-01-01");
    expect(nextDay("2028-02-28")).toBe("2028-02-29");
    expect(["2026-02-28", "2028-02-29"].map(isCalendarDay)).toEqual([true, true]);
    expect(["2026-02-29", "2026-13-01", "2026-1-01", "26-01-01", "2026-01-01T00:00", "１２３４-01-01", ""].map(isCalendarDay)).toEqual(Array(7).fill(false));
  });

  it("writes the wall clock of the museum", () => {
    expect(wallClock(Date.UTC(2026, 2, 29, 1, 30), "Europe/Paris")).toBe("2026-03-29 03:30:00");
    expect(wallClock(Date.UTC(2026, 0, 1, 0, 0, 5), "UTC")).toBe("2026-01-01 00:00:05");
  });
});

describe("audit filters", () => {
  it("takes one action or a group, nothing else", () => {
    expect(actionsOf("item.*")).toEqual(["item.delete", "item.restore", "item.purge"]);
    expect(actionsOf("member.*").length).toBeGreaterThan(3);
    expect(AUDIT_ACTIONS.every((a) => actionsOf(a).length === 1)).toBe(true);
    expect(["*", ".*", "item", "item.", "ITEM.DELETE", "item.delete ", "items.*", "item.**"].map((v) => actionsOf(v))).toEqual(Array(8).fill([]));
  });

  it("reads actors as an id, system or an address", () => {
    const actor = (value: string) => auditQuerySchema.safeParse({ actor: value });
    expect(actor("42").data?.actor).toEqual({ kind: "id", id: 42 });
    expect(actor("system").data?.actor).toEqual({ kind: "system" });
    expect(actor(" Claire@Musée.FR ").data?.actor).toEqual({ kind: "email", email: "claire@musée.fr" });
    expect(actor("").data?.actor).toBeUndefined();
    for (const bad of ["claire", "a b@c", "a@b\u0000", "-1", "1e3", "x".repeat(321)]) expect(actor(bad).success, bad).toBe(false);
  });
});

describe("audit CSV", () => {
  it("quotes as RFC 4180 says and guards formulas", () => {
    expect(csvCell('a "b", c')).toBe('"a ""b"", c"');
    expect(csvCell("line\nbreak")).toBe('"line\nbreak"');
    expect(csvCell("=cmd|' /C calc'!A0")).toBe("'=cmd|' /C calc'!A0");
    expect(csvCell('=HYPERLINK("x")')).toBe(`"'=HYPERLINK(""x"")"`);
    expect(csvCell("Ærø 😀 שלום")).toBe("Ærø 😀 שלום");
    expect(csvRow(["a", "", "-b"])).toBe("a,,'-b\r\n");
  });

  it("writes details as key: value", () => {
    expect(detailText({ name: "Salle 2", languages: ["de", "es"], empty: "", none: null, automatic: true })).toBe(
      "name: Salle 2; languages: de, es; automatic: true",
    );
  });
});
