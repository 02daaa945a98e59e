import { describe, expect, it } from "vitest";
import { formRefusalKey } from "~/hooks/use-form-refusal";
import { loginErrorKey } from "~/utils/login-messages";

// A refusal a form cannot put beside a field is still said (found by moving a museum under a browser: the
// glossary form answered 503 and showed nothing; the sign-in page said the password was wrong).
describe("refusals a page says", () => {
  it("a fieldless form refusal names its reason's message; a field's refusal is left to the field", () => {
    expect(formRefusalKey({ intent: "add", ok: false, errors: { _form: "museum_moving" } })).toBe("errors.reasons.museum_moving");
    expect(formRefusalKey({ intent: "add", ok: false, errors: { _form: "not-a-reason" } })).toBe("errors.codes.unknown");
    expect(formRefusalKey({ intent: "add", ok: false, errors: { term: "required" } })).toBeNull();
    expect(formRefusalKey({ intent: "add", ok: true })).toBeNull();
    for (const nothing of [undefined, null, "text", 3, { error: { code: "payload_too_large" } }]) expect(formRefusalKey(nothing)).toBeNull();
  });

  it("sign-in says the museum is moving rather than that the password is wrong", () => {
    const body = (code: string, reason?: string) => ({ error: { code, message: "", ...(reason ? { reason } : {}) } }) as never;
    expect(loginErrorKey(body("unavailable", "museum_moving"))).toBe("errors.reasons.museum_moving");
    expect(loginErrorKey(body("rate_limited"))).toBe("login.rateLimited");
    expect(loginErrorKey(body("invalid_input", "required"))).toBe("login.invalidInput");
    expect(loginErrorKey(body("unauthorized"))).toBe("login.invalid");
  });
});
