import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { articleEventSchema } from "~/queue/scan-event";
import { clientNetwork } from "~/lib/network";
import { countedUserAgent, saltDay, visitorFingerprint } from "~/queue/visitor-fingerprint.server";

const SECRET = "unit-tests-secret-0123456789abcdef0123";
const UA = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1";
const NOON = Date.UTC(2026, 4, 12, 12, 0);
const HOUR = 3_600_000;

describe("clientNetwork", () => {
  it.each([
    // One /64, written every way an address can be.
    ["2001:db8:85a3:42:1:2:3:4", "2001:db8:85a3:42::/64"],
    ["2001:0DB8:85A3:0042:FFFF:0000:0000:0001", "2001:db8:85a3:42::/64"],
    ["2001:db8:85a3:42::", "2001:db8:85a3:42::/64"],
    ["[2001:db8:85a3:42::beef]", "2001:db8:85a3:42::/64"],
    ["fe80::1%eth0", "fe80:0:0:0::/64"],
    ["2001:db8::", "2001:db8:0:0::/64"],
    ["::1", "0:0:0:0::/64"],
    ["2001:db8:0:0:1::1", "2001:db8:0:0::/64"],
    ["64:ff9b::192.0.2.33", "64:ff9b:0:0::/64"],
    // IPv4 whole; IPv4-mapped IPv6 is that IPv4.
    ["203.0.113.7", "203.0.113.7"],
    [" 203.0.113.7 ", "203.0.113.7"],
    ["::ffff:203.0.113.7", "203.0.113.7"],
    ["::FFFF:cb00:7107", "203.0.113.7"],
    // Not an address (locally there is none): kept as it is.
    ["local", "local"],
    ["256.1.1.1", "256.1.1.1"],
    ["1:2:3:4:5:6:7:8:9", "1:2:3:4:5:6:7:8:9"],
    ["1::2::3", "1::2::3"],
    ["1:2:3:4:5:6:7::8", "1:2:3:4:5:6:7::8"],
    ["gggg::1", "gggg::1"],
    ["", ""],
  ])("%j → %j", (address, network) => {
    expect(clientNetwork(address)).toBe(network);
  });

  it("tells neighbouring /64 networks apart", () => {
    expect(clientNetwork("2001:db8:85a3:42::1")).not.toBe(clientNetwork("2001:db8:85a3:43::1"));
  });
});

describe("countedUserAgent", () => {
  it("refuses a missing or blank User-Agent, keeps any other", () => {
    for (const blank of [null, undefined, "", " ", "\t \t"]) expect(countedUserAgent(blank)).toBeNull();
    expect(countedUserAgent(` ${UA} `)).toBe(UA);
    expect(countedUserAgent("curl/8.0")).toBe("curl/8.0");
  });
});

describe("visitorFingerprint", () => {
  it("is HMAC-SHA-256 of network and User-Agent under the day's salt, itself HMAC-SHA-256 of the secret", async () => {
    const salt = createHmac("sha256", SECRET).update("muselingo/scan-visitor-salt/v1/2026-05-12").digest();
    const expected = createHmac("sha256", salt).update(`2001:db8:85a3:42::/64\n${UA}`).digest("hex");
    expect(await visitorFingerprint(SECRET, "2001:db8:85a3:42:aaaa::1", UA, NOON)).toBe(expected);
  });

  it("is the same for one client all day long, whatever its IPv6 interface identifier", async () => {
    const first = await visitorFingerprint(SECRET, "2001:db8:85a3:42:1:2:3:4", UA, Date.UTC(2026, 4, 12, 0, 0));
    expect(first).toMatch(/^[0-9a-f]{64}$/);
    expect(articleEventSchema.shape.fingerprint.safeParse(first).success).toBe(true);
    expect(await visitorFingerprint(SECRET, "2001:db8:85a3:42:ffff::9", UA, NOON)).toBe(first);
    expect(await visitorFingerprint(SECRET, "2001:DB8:85A3:42::1", ` ${UA}`, Date.UTC(2026, 4, 12, 23, 59, 59, 999))).toBe(first);
  });

  it("changes with the UTC day, the secret, the network and the User-Agent", async () => {
    const base = await visitorFingerprint(SECRET, "203.0.113.7", UA, NOON);
    const others = await Promise.all([
      visitorFingerprint(SECRET, "203.0.113.7", UA, NOON + 12 * HOUR),
      visitorFingerprint(SECRET, "203.0.113.7", UA, NOON - 13 * HOUR),
      visitorFingerprint(`${SECRET}x`, "203.0.113.7", UA, NOON),
      visitorFingerprint(SECRET, "203.0.113.8", UA, NOON),
      visitorFingerprint(SECRET, "203.0.113.7", `${UA} `.replace("17_5", "17_6"), NOON),
    ]);
    expect(new Set([base, ...others]).size).toBe(6);
    // Back on the first day, the first day's value: the salt depends on the day only, not on the order.
    expect(await visitorFingerprint(SECRET, "203.0.113.7", UA, NOON + HOUR)).toBe(base);
  });

  it("is null without a User-Agent, and holds neither the address nor the User-Agent", async () => {
    expect(await visitorFingerprint(SECRET, "203.0.113.7", "", NOON)).toBeNull();
    expect(await visitorFingerprint(SECRET, "203.0.113.7", null, NOON)).toBeNull();
    const value = await visitorFingerprint(SECRET, "203.0.113.7", "é 😀 \u202e", NOON);
    expect(value).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe("saltDay", () => {
  it("is the UTC calendar day", () => {
    expect(saltDay(Date.UTC(2026, 2, 14, 23, 59, 59, 999))).toBe("2026-03-14");
    expect(saltDay(Date.UTC(2026, 2, 15, 0, 0))).toBe("2026-03-15");
  });
});
