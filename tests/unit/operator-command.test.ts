import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { DatabaseSync } from "node:sqlite";
import { describe, expect, it } from "vitest";
import { base32Decode } from "~/operator/totp";
import { operatorCreateSteps, parseOperatorCommand, UsageError } from "../../scripts/operator-command.mjs";

// `npm run operator:create` (decision 146): its refusals, and its SQL run on the directory's own migrations.
function directory(): DatabaseSync {
  const db = new DatabaseSync(":memory:");
  db.exec("PRAGMA foreign_keys = ON");
  for (const file of readdirSync("drizzle-directory")
    .filter((f) => f.endsWith(".sql"))
    .sort())
    db.exec(readFileSync(`drizzle-directory/${file}`, "utf8"));
  return db;
}

describe("npm run operator:create", () => {
  it("refuses what is not an operator's address, or options that cannot go together", () => {
    for (const argv of [
      [],
      ["delete", "--email", "a@b.org"],
      ["create"],
      ["create", "--email", "pas une adresse"],
      ["create", "--email", `${"x".repeat(250)}@b.org`],
      ["create", "--email", "a@b.org", "--remote", "--persist-to", "/tmp/x"],
      ["create", "--email", "a@b.org", "--base-url", "guide.example.org"],
      ["create", "--email", "a@b.org", "--unknown"],
    ])
      expect(() => parseOperatorCommand(argv), argv.join(" ")).toThrow(UsageError);
    expect(parseOperatorCommand(["create", "--email", "  Ops@Example.ORG "])).toMatchObject({ email: "ops@example.org", remote: false });
  });

  it("writes the operator, a one-time link valid 7 days and an audit entry; again, a new key and only the newest link", () => {
    const db = directory();
    const now = 1_800_000_000_000;
    const first = operatorCreateSteps({ email: "ops@example.org" }, now);
    db.exec(first.sql);
    expect(base32Decode(first.secret)).toHaveLength(20);
    expect(first.tokenHash).toBe(createHash("sha256").update(first.token).digest("hex"));
    expect(first.path).toBe(`/operator/setup/${first.token}`);
    expect(first.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(db.prepare("SELECT email, totp_secret AS secret, password_hash AS hash FROM operators").all()).toEqual([
      { email: "ops@example.org", secret: first.secret, hash: null },
    ]);
    expect(db.prepare("SELECT expires_at - ? AS ttl, used_at FROM operator_setup_tokens").all(now)).toEqual([{ ttl: 7 * 86_400_000, used_at: null }]);
    // A lost phone: run again. The old key and the old link stop working; one operator still.
    const second = operatorCreateSteps({ email: "ops@example.org" }, now + 1000);
    db.exec(second.sql);
    expect(second.secret).not.toBe(first.secret);
    expect(db.prepare("SELECT count(*) AS n, max(totp_secret) AS secret FROM operators").get()).toEqual({ n: 1, secret: second.secret });
    expect(db.prepare("SELECT token_hash AS hash FROM operator_setup_tokens WHERE used_at IS NULL").all()).toEqual([{ hash: second.tokenHash }]);
    expect(db.prepare("SELECT count(*) AS n FROM operator_audit WHERE action = 'operator.created'").get()).toEqual({ n: 2 });
    // An address with a quote goes into the SQL as data.
    db.exec(operatorCreateSteps({ email: "o'brien@example.org" }, now).sql);
    expect(db.prepare("SELECT count(*) AS n FROM operators").get()).toEqual({ n: 2 });
  });
});
