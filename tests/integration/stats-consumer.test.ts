import { createExecutionContext, createMessageBatch, env, getQueueResult } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import consumer from "../../workers/stats-consumer/index";

describe("stats consumer", () => {
  it("acknowledges valid scan messages and drops malformed ones without retrying them", async () => {
    const batch = createMessageBatch("muselingo-scans", [
      {
        id: "m1",
        timestamp: new Date(),
        attempts: 1,
        body: { id: crypto.randomUUID(), museumId: 1, articleId: 2, lang: "en", kind: "scan", occurredAt: Date.now() },
      },
      { id: "m2", timestamp: new Date(), attempts: 1, body: { nonsense: true } },
    ]);
    const ctx = createExecutionContext();
    await consumer.queue(batch, env as unknown as ConsumerEnv, ctx);
    const result = await getQueueResult(batch, ctx);
    expect(result.explicitAcks.sort()).toEqual(["m1", "m2"]);
    expect(result.retryMessages).toEqual([]);
  });
});
