-- Operators (issue 33 §1, decision 146): the accounts that run a deployment's museums. They belong to no museum,
-- so they live in the directory, with their own sessions, sign-in codes and audit log; no museum table refers to them.

-- password_hash is null until the operator follows their setup link; totp_secret (Base32, RFC 6238) is drawn when the
-- account is created and shown once, on that link's page. totp_last_step: the last 30-second step whose code was
-- accepted, so a code never signs in twice.
CREATE TABLE operators (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  email TEXT NOT NULL UNIQUE,
  password_hash TEXT,
  totp_secret TEXT NOT NULL,
  totp_last_step INTEGER NOT NULL DEFAULT -1,
  enrolled_at INTEGER,
  created_at INTEGER NOT NULL
);

-- The one-time link that sets the password and enrols the authenticator: its SHA-256, never the link.
CREATE TABLE operator_setup_tokens (
  token_hash TEXT PRIMARY KEY,
  operator_id INTEGER NOT NULL REFERENCES operators (id) ON DELETE CASCADE,
  expires_at INTEGER NOT NULL,
  used_at INTEGER
) WITHOUT ROWID;

-- Ten single-use recovery codes per operator, shown once at enrolment: their SHA-256.
CREATE TABLE operator_recovery_codes (
  operator_id INTEGER NOT NULL REFERENCES operators (id) ON DELETE CASCADE,
  code_hash TEXT NOT NULL,
  used_at INTEGER,
  PRIMARY KEY (operator_id, code_hash)
) WITHOUT ROWID;

-- Signed-in operators: the cookie's SHA-256.
CREATE TABLE operator_sessions (
  id TEXT PRIMARY KEY,
  operator_id INTEGER NOT NULL REFERENCES operators (id) ON DELETE CASCADE,
  expires_at INTEGER NOT NULL,
  created_at INTEGER NOT NULL
) WITHOUT ROWID;
CREATE INDEX operator_sessions_expires_idx ON operator_sessions (expires_at);

-- Every operator action: who (kept by address: an operator removed later stays named), when, on which museum, what.
CREATE TABLE operator_audit (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  at INTEGER NOT NULL,
  operator_id INTEGER,
  operator_email TEXT NOT NULL,
  museum_id INTEGER,
  action TEXT NOT NULL,
  detail TEXT NOT NULL DEFAULT '{}'
);
CREATE INDEX operator_audit_at_idx ON operator_audit (at);
