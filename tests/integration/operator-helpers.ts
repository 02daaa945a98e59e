import { env } from "cloudflare:test";
import { expect } from "vitest";
import { sha256Hex } from "~/lib/crypto";
import { base32Decode, hotp, newTotpSecret, totpStep } from "~/operator/totp";
import { postForm } from "./team-helpers";

// Operators as `npm run operator:create` writes them (scripts/operator-command.mjs), enrolled through the setup page.

export async function newOperator(email = `op-${crypto.randomUUID()}@example.org`) {
  const secret = newTotpSecret();
  const token = crypto.randomUUID().replace(/-/g, "") + crypto.randomUUID().replace(/-/g, "");
  const d1 = env.DIRECTORY;
  await d1.batch([
    d1.prepare("INSERT INTO operators (email, totp_secret, created_at) VALUES (?1, ?2, ?3)").bind(email, secret, Date.now()),
    d1
      .prepare("INSERT INTO operator_setup_tokens (token_hash, operator_id, expires_at) SELECT ?1, id, ?2 FROM operators WHERE email = ?3")
      .bind(await sha256Hex(token), Date.now() + 86_400_000, email),
  ]);
  return { email, secret, token };
}

export const code = async (secret: string, stepOffset = 0) => hotp(base32Decode(secret)!, totpStep(Date.now()) + stepOffset);
export const cookieOf = (response: Response) => /muselingo_operator=([^;]+)/.exec(response.headers.get("Set-Cookie") ?? "")?.[0] ?? "";
export const PASSWORD = "un mot de passe sûr ✓";

export async function enrolled() {
  const op = await newOperator();
  const done = await postForm(`/operator/setup/${op.token}`, { password: PASSWORD, code: await code(op.secret) });
  expect(done.status).toBe(200);
  const html = await done.text();
  const codes = [...html.matchAll(/<code>([a-z0-9]{5}-[a-z0-9]{5})<\/code>/g)].map((m) => m[1]!);
  // The step whose code the setup spent (a step may have ended between computing the code and checking it).
  const row = await env.DIRECTORY.prepare("SELECT totp_last_step AS step FROM operators WHERE email = ?").bind(op.email).first<{ step: number }>();
  return { ...op, cookie: cookieOf(done), recoveryCodes: codes, usedStep: row!.step };
}

export const login = (email: string, password: string, typed: string, headers: Record<string, string> = {}) =>
  postForm("/operator/login", { email, password, code: typed }, headers);
