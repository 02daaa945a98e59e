// The visitor's ask form as the server reads it (decision 151): parsed with zod like every input that reaches D1.
// Its refusals are reasons the page turns into words in the visitor's language.
import { z } from "zod";
import { normalise } from "./retrieve";
import { cleanVisitorText } from "./text";

/** A question's longest form, in characters (code points) as the visitor typed it. */
export const QUESTION_MAX_CHARS = 300;

/** A question as kept and compared: cleaned as reports are (no control or bidi-override character), one space between words. */
export function cleanQuestion(question: string): string {
  return cleanVisitorText(question).replace(/\s+/gu, " ");
}

const question = z
  .string()
  .transform(cleanQuestion)
  .pipe(
    z
      .string()
      .min(1, "empty")
      // "???" or "🏺❓": nothing an engine, or staff, could read.
      .refine((q) => normalise(q) !== "", "no_words")
      .refine((q) => [...q].length <= QUESTION_MAX_CHARS, "too_long"),
  );

/** "Send my question to the museum": the question's id and the token its answer page carried. */
export const sendFormSchema = z.object({
  send: z
    .string()
    .regex(/^[1-9]\d{0,15}$/, "invalid")
    .transform(Number),
  token: z.string().regex(/^[0-9a-f]{64}$/, "invalid"),
});

export const askFormSchema = z.object({ q: question.default("") });

/** The form's text fields (a file or a repeated field is not this form: its first text value, or nothing). */
export function formFields(form: FormData): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of ["q", "lang", "send", "token"]) {
    const value = form.get(name);
    if (typeof value === "string") out[name] = value;
  }
  return out;
}
