import { describe, expect, it } from "vitest";
import { knownTimeZone, offsetAt, parsePublicationTime, wallClock } from "~/lib/zoned-time";

// The museum's wall clock (decisions 041, 043): one home for publication times and the audit log's days.
describe("zoned time", () => {
  it("reads a museum's wall clock in its zone, daylight saving included", () => {
    expect(parsePublicationTime("2027-01-15T09:00", "Europe/Paris")).toBe(Date.UTC(2027, 0, 15, 8, 0));
    expect(parsePublicationTime("2027-07-15T09:00", "Europe/Paris")).toBe(Date.UTC(2027, 6, 15, 7, 0));
    expect(parsePublicationTime("2027-07-15T09:00", "Asia/Kolkata")).toBe(Date.UTC(2027, 6, 15, 3, 30));
  });

  it("takes an explicit instant as it is, whatever the zone", () => {
    expect(parsePublicationTime("2027-03-01T08:00:00Z", "America/New_York")).toBe(Date.UTC(2027, 2, 1, 8, 0));
    expect(parsePublicationTime("2027-03-01T09:00+01:00", "Asia/Tokyo")).toBe(Date.UTC(2027, 2, 1, 8, 0));
  });

  it("reads a skipped time after the change and a doubled time as its first occurrence", () => {
    // Paris, 28 March 2027: 02:00 → 03:00. 02:30 does not exist: read as 03:30 (01:30 UTC).
    expect(parsePublicationTime("2027-03-28T02:30", "Europe/Paris")).toBe(Date.UTC(2027, 2, 28, 1, 30));
    // Paris, 31 October 2027: 03:00 → 02:00. 02:30 happens twice: the first (00:30 UTC).
    expect(parsePublicationTime("2027-10-31T02:30", "Europe/Paris")).toBe(Date.UTC(2027, 9, 31, 0, 30));
  });

  it("refuses what is not a date and time", () => {
    for (const value of ["2027-02-30T10:00", "2027-13-01T10:00", "2027-01-01T24:00", "2027-01-01 10:00", "demain", "", "2027-01-01T10:00+25:00"]) {
      expect(parsePublicationTime(value, "Europe/Paris"), value).toBeNull();
    }
  });

  it("writes the wall clock and the offset, an unknown zone as UTC", () => {
    expect(wallClock(Date.UTC(2027, 6, 15, 7, 5, 9), "Europe/Paris")).toBe("2027-07-15 09:05:09");
    expect(wallClock(Date.UTC(2027, 6, 15, 7, 5, 9), "Mars/Olympus")).toBe("2027-07-15 07:05:09");
    expect(offsetAt(Date.UTC(2027, 0, 15), "Europe/Paris")).toBe(3_600_000);
    expect(offsetAt(Date.UTC(2027, 0, 15), "Mars/Olympus")).toBe(0);
    expect(knownTimeZone("Pacific/Chatham")).toBe(true);
    expect(knownTimeZone("Mars/Olympus")).toBe(false);
  });
});
