import { describe, expect, it } from "vitest";
import { scanEventSchema, sendScanEvent, type ScanEvent } from "~/queue/scan-event";

const valid: ScanEvent = {
  id: "1b4e28ba-2fa1-41d2-883f-0016d3cca427",
  type: "scan",
  museumId: 1,
  articleId: 42,
  qrcodeId: 7,
  lang: "pt-BR",
  at: 1_767_225_600_000,
};

describe("scan event schema", () => {
  it("accepts a scan, a view without QR code, and the usual language tags", () => {
    expect(scanEventSchema.parse(valid)).toEqual(valid);
    expect(scanEventSchema.safeParse({ ...valid, type: "view", qrcodeId: null }).success).toBe(true);
    // With the visitor's fingerprint, or without (events queued before it existed).
    expect(scanEventSchema.parse({ ...valid, fingerprint: "0123456789abcdef".repeat(4) })).toEqual({ ...valid, fingerprint: "0123456789abcdef".repeat(4) });
    for (const lang of ["en", "fr", "zh-Hant-TW", "sr-Latn", "es-419"]) {
      expect(scanEventSchema.safeParse({ ...valid, lang }).success, lang).toBe(true);
    }
  });

  it.each<[string, Record<string, unknown>]>([
    ["id that is not a uuid", { id: "m1" }],
    ["missing id", { id: undefined }],
    ["unknown type", { type: "click" }],
    ["museumId of zero", { museumId: 0 }],
    ["fractional museumId", { museumId: 1.5 }],
    ["museumId as a string", { museumId: "1" }],
    ["negative articleId", { articleId: -3 }],
    ["missing articleId", { articleId: undefined }],
    ["qrcodeId of zero", { qrcodeId: 0 }],
    ["missing qrcodeId (null is the way to say none)", { qrcodeId: undefined }],
    ["one-letter lang", { lang: "e" }],
    ["lang longer than 35 characters", { lang: `en-${"a".repeat(8)}-${"b".repeat(8)}-${"c".repeat(8)}-${"d".repeat(8)}` }],
    ["lang with spaces", { lang: "en US" }],
    ["at that is not an integer", { at: 1.5 }],
    ["at as an ISO date", { at: "2026-01-01T00:00:00Z" }],
    ["fingerprint in capitals", { fingerprint: "A".repeat(64) }],
    ["fingerprint one digit short", { fingerprint: "a".repeat(63) }],
    ["fingerprint that is an address", { fingerprint: "203.0.113.7" }],
    ["fingerprint as null (absent is the way to say none)", { fingerprint: null }],
  ])("rejects an event with %s", (_label, change) => {
    expect(scanEventSchema.safeParse({ ...valid, ...change }).success).toBe(false);
  });
});

describe("sendScanEvent", () => {
  function fakeQueue() {
    const sent: unknown[] = [];
    const queue = { send: async (body: unknown) => void sent.push(body), sendBatch: async () => {} } as unknown as Queue;
    return { queue, sent };
  }

  it("queues a valid event", async () => {
    const { queue, sent } = fakeQueue();
    await sendScanEvent(queue, valid);
    expect(sent).toEqual([valid]);
  });

  it("refuses an invalid one before it reaches the queue", async () => {
    const { queue, sent } = fakeQueue();
    await expect(sendScanEvent(queue, { ...valid, museumId: -1 })).rejects.toThrow();
    expect(sent).toEqual([]);
  });
});
