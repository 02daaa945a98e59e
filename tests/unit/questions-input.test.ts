// The visitor's ask form as the server parses it (app/questions/input.ts, decision 151).
import { describe, expect, it } from "vitest";
import { askFormSchema, cleanQuestion, sendFormSchema } from "~/questions/input";

const reason = (q: string) => {
  const parsed = askFormSchema.safeParse({ q });
  return parsed.success ? parsed.data.q : `refused: ${parsed.error.issues[0]?.message}`;
};

describe("the ask form", () => {
  it("keeps a question cleaned, one space between words", () => {
    expect(reason("  Qui \u202egnp.live\u202c a fait\u0000 l'amphore ?\n")).toBe("Qui gnp.live a fait l'amphore ?");
    expect(cleanQuestion("a\u00adb\u200bc")).toBe("abc");
  });
  it("refuses an empty question, one without words, and one over 300 characters (counted as characters)", () => {
    expect(reason("   ")).toBe("refused: empty");
    expect(reason("\u202e")).toBe("refused: empty");
    expect(reason("🏺❓ ???")).toBe("refused: no_words");
    expect(reason("𓂀".repeat(300))).toBe("𓂀".repeat(300));
    expect(reason("é".repeat(301))).toBe("refused: too_long");
    expect(askFormSchema.safeParse({}).success).toBe(false);
  });
  it("reads a send only with a positive id and a 64-hex token", () => {
    expect(sendFormSchema.parse({ send: "12", token: "a".repeat(64) })).toEqual({ send: 12, token: "a".repeat(64) });
    for (const bad of [{ send: "0", token: "a".repeat(64) }, { send: "1e3", token: "a".repeat(64) }, { send: "12", token: "zz" }, { send: "12" }])
      expect(sendFormSchema.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
  });
});
