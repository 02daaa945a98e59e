import { describe, expect, it } from "vitest";
import { longDay, PALETTE, shortDay, toSeries } from "~/components/stats/series";
import { dayRange, formatDay, statsCsv } from "~/models/stats.server";
import { dayInTimeZone } from "~/lib/dates";
import { parseScanMessage, retryDelaySeconds } from "~/queue/scan-stats.server";

const NOW = Date.UTC(2026, 2, 29, 12);
const event = { id: "1b4e28ba-2fa1-41d2-883f-0016d3cca427", type: "scan", museumId: 1, articleId: 2, qrcodeId: 3, lang: "en", at: NOW };

describe("statistics helpers", () => {
  it("lists calendar days across month, year and summer-time changes", () => {
    expect(dayRange("2026-03-30", 3)).toEqual(["2026-03-28", "2026-03-29", "2026-03-30"]);
    expect(dayRange("2026-01-01", 2)).toEqual(["2025-12-31", "2026-01-01"]);
    expect(dayRange("2024-03-01", 2)).toEqual(["2024-02-29", "2024-03-01"]);
    expect(dayRange("2026-11-22", 365)).toHaveLength(365);
    expect(new Set(dayRange("2026-11-22", 365)).size).toBe(365);
    expect(formatDay("2026-03-05")).toBe("05-03-2026");
  });

  it("puts an instant on the right local day on both sides of midnight and of a DST change", () => {
    // Paris goes to summer time on 29 March 2026 at 01:00 UTC.
    expect(dayInTimeZone(Date.UTC(2026, 2, 28, 22, 59), "Europe/Paris")).toBe("2026-03-28");
    expect(dayInTimeZone(Date.UTC(2026, 2, 28, 23, 0), "Europe/Paris")).toBe("2026-03-29");
    expect(dayInTimeZone(Date.UTC(2026, 2, 29, 22, 0), "Europe/Paris")).toBe("2026-03-30");
    expect(dayInTimeZone(Date.UTC(2026, 2, 29, 3, 0), "America/Los_Angeles")).toBe("2026-03-28");
    expect(dayInTimeZone(Date.UTC(2026, 2, 29, 11, 0), "Pacific/Kiritimati")).toBe("2026-03-30");
  });

  it("refuses what the schema lets through but cannot be counted", () => {
    expect(parseScanMessage(event, NOW)).toEqual({ ok: true, event });
    expect(parseScanMessage({ ...event, lang: "ZH-hant-tw" }, NOW)).toEqual({ ok: true, event: { ...event, lang: "zh-Hant-TW" } });
    expect(parseScanMessage({ ...event, lang: "en-aaaaaaaa-b" }, NOW).ok).toBe(false);
    expect(parseScanMessage({ ...event, at: NOW - 31 * 86_400_000 }, NOW).ok).toBe(false);
    expect(parseScanMessage({ ...event, at: NOW + 2 * 86_400_000 }, NOW).ok).toBe(false);
    expect(parseScanMessage({ ...event, extra: "ignored" }, NOW).ok).toBe(true);
    expect(parseScanMessage(JSON.stringify(event), NOW)).toEqual({ ok: false, reason: expect.stringContaining("body") });
  });

  it("backs off exponentially, capped at ten minutes", () => {
    expect([1, 2, 3, 4, 5, 6, 7, 50].map(retryDelaySeconds)).toEqual([10, 20, 40, 80, 160, 320, 600, 600]);
    expect(retryDelaySeconds(0)).toBe(10);
  });

  it("writes a CSV with every key as a column and zeros, quoting and defusing where needed", () => {
    const csv = statsCsv({
      days: ["2026-03-01", "2026-03-02"],
      rows: [{ formatted_date: "01-03-2026", "a,b": 2, "@x": 1 }, { formatted_date: "02-03-2026" }],
      keys: ["a,b", "@x", 'say "hi"\nnow'],
    });
    expect(csv).toBe('date,"a,b",\'@x,"say ""hi""\nnow"\r\n2026-03-01,2,1,0\r\n2026-03-02,0,0,0\r\n');
  });

  it("builds one series per key with a count for every day and the palette in turn", () => {
    const keys = ["a", "b", "c", "d", "e", "f", "g"];
    const series = toSeries(
      {
        days: ["d1", "d2"],
        rows: [
          { formatted_date: "x", a: 3 },
          { formatted_date: "y", g: 1 },
        ],
        keys,
        totals: { a: 3, g: 1 },
        total: 4,
      },
      (key) => key.toUpperCase(),
    );
    expect(series[0]).toEqual({ key: "a", label: "A", data: [3, 0], total: 3, color: PALETTE[0] });
    expect(series[6]).toMatchObject({ data: [0, 1], color: PALETTE[6], total: 1 });
    expect(new Set(PALETTE).size).toBe(PALETTE.length);
    expect(series[1]!.total).toBe(0);
  });

  it("names days in the interface language", () => {
    expect(shortDay("2026-03-15", "fr")).toBe("15 mars");
    expect(shortDay("2026-03-15", "en")).toBe("Mar 15");
    expect(longDay("2026-03-15", "fr")).toBe("dimanche 15 mars 2026");
    expect(longDay("2026-03-15", "en")).toBe("Sunday, March 15, 2026");
  });
});
