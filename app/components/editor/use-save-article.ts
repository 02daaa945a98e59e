import { useRef, useState } from "react";
import toast from "react-hot-toast";
import { useTranslation } from "react-i18next";
import { SLUG_MAX_LENGTH } from "~/content/defaults";
import type { StaleDetails } from "~/errors";
import { apiErrorMessage, callApi } from "~/utils/api-client";
import { NAME_MAX_LENGTH } from "~/lib/names";
import { colourProblem, contentOf, nameProblem, slugProblem, type Draft } from "./editor-state";
import { loadContentCheck } from "./content-check-loader";
import { contentPathOf, numberBounds, type ContentIssue, type ContentPath } from "./field-paths";

/** Field messages shown beside their input (decision 069). */
export interface SaveErrors {
  name?: string;
  slug?: string;
  colour?: string;
  /** A content field the server refused that the browser's own check let through (say, a file gone). */
  server?: { path: ContentPath; message: string };
  /** A failure that belongs to no field (413, network…), shown next to Save. */
  general?: string;
}

/** The first refused field, for the caller to open its card and move focus there. */
export type FocusTarget = "name" | "slug" | "colour" | { path: ContentPath } | null;

/** A save refused because someone saved since (decision 068): who, which version, when; null while unknown. */
export type Conflict = { current: StaleDetails | null };

type Saved = { version: number; unformatted_name: string };

const SAVE_TOAST = "article-save";

/**
 * Save with the version the page loaded: 200 moves the version on; 409 stale_version keeps the draft and
 * opens the conflict panel with who saved; 400 and the address conflict point at their field (each
 * message beside its field, the one toast only says how many need attention); 413 says the article is too large.
 */
export function useSaveArticle(articleId: number, initialVersion: number) {
  const { t } = useTranslation();
  const [version, setVersion] = useState(initialVersion);
  const [busy, setBusy] = useState(false);
  const [conflict, setConflict] = useState<Conflict | null>(null);
  const [errors, setErrors] = useState<SaveErrors>({});
  // After a refused save the content's own check runs live, so each message goes as soon as it is fixed.
  const [checking, setChecking] = useState(false);
  // Set while the first save loads the content check: a second click meanwhile starts no second save.
  const checkingNow = useRef(false);

  function slugMessage(problem: ReturnType<typeof slugProblem>) {
    if (problem === "empty") return t("editor.slugEmpty");
    if (problem === "too_long") return t("editor.slugTooLong", { max: SLUG_MAX_LENGTH });
    if (problem === "reserved") return t("editor.slugReserved");
    return problem ? t("editor.slugInvalid") : undefined;
  }

  /** A content field's message, in the words of the form that edits it. */
  function issueMessage(issue: ContentIssue): string {
    const field = issue.path[issue.path.length - 1];
    if (field === "link" && (issue.reason === "unsafe_url" || issue.reason === "invalid")) return t("editor.fields.link.urlInvalid");
    const bounds = numberBounds(issue.path);
    if (bounds && issue.reason === "out_of_range") return t("editorErrors.numberOutOfRange", bounds);
    if (bounds && issue.reason === "wrong_type") return t("editorErrors.numberNotWhole", bounds);
    return t(`errors.reasons.${issue.reason}`, { max: NAME_MAX_LENGTH, defaultValue: t("errors.reasons.invalid") });
  }

  /**
   * Checks that need no server: the article's own fields and every content field, in page order. The content
   * check (the schema) is loaded by the first save (decision 077); if it cannot be, the server checks alone.
   */
  async function check(draft: Draft): Promise<{ errors: SaveErrors; issues: ContentIssue[] }> {
    const name = nameProblem(draft.name);
    const checker = await loadContentCheck().catch(() => null);
    // Metadatas (index 0) are said by the settings' own fields.
    const issues = checker ? checker.contentIssues(contentOf(draft)).filter((issue) => issue.path[0] !== 0) : [];
    return {
      errors: {
        name: name ? t(`errors.reasons.${name}`, { max: NAME_MAX_LENGTH }) : undefined,
        slug: slugMessage(slugProblem(draft.metadatas.url)),
        colour: colourProblem(draft.metadatas.backgroundColor) ? t("editor.colourInvalid") : undefined,
      },
      issues,
    };
  }

  function refuse(count: number) {
    toast.error(t("editorErrors.saveRefused", { count }), { id: SAVE_TOAST, duration: 6000 });
  }

  async function save(draft: Draft, onSaved: (saved: Saved) => void, options: { overwrite?: number } = {}): Promise<FocusTarget> {
    if (busy || checkingNow.current) return null;
    checkingNow.current = true;
    const found = await check(draft).finally(() => {
      checkingNow.current = false;
    });
    const own = (["name", "slug", "colour"] as const).filter((key) => found.errors[key]);
    if (own.length + found.issues.length > 0) {
      setErrors(found.errors);
      setChecking(true);
      refuse(own.length + found.issues.length);
      return own[0] ?? { path: found.issues[0]!.path };
    }
    setBusy(true);
    setErrors({});
    toast.loading(t("editor.saving"), { id: SAVE_TOAST });
    const result = await callApi<Saved>("/api/manage/update_article", {
      articleId,
      version: options.overwrite ?? version,
      unformatted_name: draft.name,
      newContent: contentOf(draft),
    });
    setBusy(false);
    if (result.ok) {
      setVersion(result.data.version);
      setConflict(null);
      setChecking(false);
      onSaved(result.data);
      toast.success(t("editor.saved"), { id: SAVE_TOAST, duration: 5000 });
      return null;
    }
    const { status, error } = result;
    if (status === 401) {
      // The session ended: the login dialog opens (onUnauthorized, decision 071) and retries the save; a
      // failure toast or alert behind it would be a second, wrong message.
      toast.dismiss(SAVE_TOAST);
      return null;
    }
    if (status === 409 && error.reason === "stale_version") {
      toast.error(t("editorErrors.saveConflict"), { id: SAVE_TOAST, duration: 6000 });
      setConflict({ current: (error as { current?: StaleDetails }).current ?? null });
      return null;
    }
    if (status === 409 && error.field === "newContent.0.url") {
      refuse(1);
      setErrors({ slug: t("editor.slugTaken") });
      return "slug";
    }
    if (status === 413) {
      toast.error(t("editorErrors.saveFailed"), { id: SAVE_TOAST, duration: 6000 });
      setErrors({ general: t("editor.tooLarge") });
      return null;
    }
    const message = apiErrorMessage(t, result);
    if (status === 400) {
      const field = error.field ?? "";
      const target: FocusTarget =
        field === "unformatted_name" ? "name" : field === "newContent.0.url" ? "slug" : field.startsWith("newContent.0.") ? "colour" : null;
      if (target) {
        refuse(1);
        setErrors({ [target]: message });
        return target;
      }
      const path = contentPathOf(field);
      if (path) {
        refuse(1);
        setErrors({ server: { path, message: issueMessage({ path, reason: error.reason ?? "invalid" }) } });
        return { path };
      }
    }
    toast.error(t("editorErrors.saveFailed"), { id: SAVE_TOAST, duration: 6000 });
    setErrors({ general: message });
    return null;
  }

  /** After a reload from the server: its version, and nothing stale or wrong any more. */
  function reset(nextVersion: number) {
    setVersion(nextVersion);
    setConflict(null);
    setChecking(false);
    setErrors({});
  }

  /** Another call (publishing) found the version stale: the same panel, who saved read from the article. */
  async function markStale() {
    setConflict({ current: null });
    const read = await callApi<{ draft: { version: number; updatedAt: number; updatedBy: StaleDetails["savedBy"] } }>(
      `/api/read/article?articleId=${articleId}`,
    );
    if (read.ok && read.data.draft.version !== version) {
      const { draft } = read.data;
      setConflict({ current: { version: draft.version, savedAt: draft.updatedAt, savedBy: draft.updatedBy } });
    }
  }

  /** The comparison read a newer state of their version: the panel says it (and "keep mine" overwrites it). */
  const updateConflict = (current: StaleDetails) => setConflict((shown) => (shown && current.version !== version ? { current } : shown));

  return { version, busy, conflict, updateConflict, errors, setErrors, checking, issueMessage, save, reset, slugMessage, markStale };
}
