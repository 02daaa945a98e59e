// What `npm run operator:create` decides, without a database (decision 146): the checked e-mail, a fresh TOTP secret,
// a one-time setup link's token, and the SQL that writes them to the directory. scripts/operator.mjs runs it.
// Running it again for the same address (a lost phone) draws a new secret at once and a new link: the old
// authenticator stops working, the password and recovery codes are replaced when the new link is followed.
import { createHash, randomBytes } from "node:crypto";
import { base32Encode } from "../app/operator/totp.ts";
import { readOptions, sqlString, UsageError } from "./lib.mjs";

export { UsageError };

export const OPERATOR_OPTIONS = { email: "string", remote: "boolean", "persist-to": "string", "base-url": "string" };
/** As app/operator/accounts.server.ts OPERATOR_SETUP_TTL_MS. */
export const SETUP_TTL_MS = 7 * 24 * 60 * 60 * 1000;

export function parseOperatorCommand(argv) {
  const [command, ...rest] = argv;
  if (command !== "create") throw new UsageError(`unknown command "${command ?? ""}"; use create`);
  const { values } = readOptions(rest, OPERATOR_OPTIONS);
  if (values.remote && values["persist-to"]) throw new UsageError("--remote and --persist-to cannot go together");
  const email = typeof values.email === "string" ? values.email.trim().toLowerCase() : "";
  if (!email) throw new UsageError("--email is required (the operator's e-mail address)");
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email) || email.length > 254) throw new UsageError("--email is invalid: an e-mail address");
  const baseUrl = values["base-url"];
  if (baseUrl !== undefined && !/^https?:\/\/[^\s/]+$/.test(baseUrl))
    throw new UsageError("--base-url is invalid: an origin such as https://guide.example.org");
  return { email, remote: values.remote === true, persistTo: values["persist-to"], baseUrl };
}

/** The secret, the link's token and the directory's SQL (one file: wrangler runs it as one batch). */
export function operatorCreateSteps(plan, now = Date.now(), random = randomBytes) {
  const secret = base32Encode(new Uint8Array(random(20)));
  const token = random(32).toString("base64url");
  const tokenHash = createHash("sha256").update(token).digest("hex");
  const email = sqlString(plan.email);
  const sql = [
    `INSERT INTO operators (email, totp_secret, created_at) VALUES (${email}, ${sqlString(secret)}, ${now}) ON CONFLICT (email) DO UPDATE SET totp_secret = excluded.totp_secret, totp_last_step = -1;`,
    // Older links of this operator stop working: only the newest one sets the account up.
    `UPDATE operator_setup_tokens SET used_at = ${now} WHERE used_at IS NULL AND operator_id = (SELECT id FROM operators WHERE email = ${email});`,
    `INSERT INTO operator_setup_tokens (token_hash, operator_id, expires_at) SELECT ${sqlString(tokenHash)}, id, ${now + SETUP_TTL_MS} FROM operators WHERE email = ${email};`,
    `INSERT INTO operator_audit (at, operator_id, operator_email, museum_id, action, detail) SELECT ${now}, NULL, 'npm run operator:create', NULL, 'operator.created', json_object('operator', ${email}) ;`,
  ].join("\n");
  return { secret, token, tokenHash, sql, path: `/operator/setup/${token}` };
}
