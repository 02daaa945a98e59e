// The content's own check before a save (decision 069), with the content schema, so with zod: loaded on
// demand (loadContentCheck) on the first save, not with the editor (decision 077: ~13 KiB gzip less to open it).
import { articleContentSchema, type ContentElement } from "~/content/schema";
import type { ContentIssue } from "./field-paths";

/** Every field of the content the schema refuses, in reading order, at most one per field. */
export function contentIssues(content: readonly ContentElement[]): ContentIssue[] {
  const parsed = articleContentSchema.safeParse(content);
  if (parsed.success) return [];
  const seen = new Set<string>();
  const issues: ContentIssue[] = [];
  for (const issue of parsed.error.issues) {
    const key = issue.path.join(".");
    if (seen.has(key)) continue;
    seen.add(key);
    issues.push({ path: issue.path, reason: /^[a-z_]+$/.test(issue.message) ? issue.message : "invalid" });
  }
  return issues;
}
