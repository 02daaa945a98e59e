import { useState } from "react";
import toast from "react-hot-toast";
import { useTranslation } from "react-i18next";
import { SLUG_MAX_LENGTH } from "~/content/defaults";
import { apiErrorMessage, callApi } from "~/utils/api-client";
import { NAME_MAX_LENGTH } from "~/lib/names";
import { colourProblem, contentOf, elementIndexOfField, nameProblem, slugProblem, type Draft } from "./editor-state";

/** Field messages shown beside their input; `element` is a list index (metadatas left out). */
export interface SaveErrors {
  name?: string;
  slug?: string;
  colour?: string;
  element?: { index: number; message: string };
  /** A failure that belongs to no field (413, network…), shown in the page's alert. */
  general?: string;
}

/** What the first invalid field is, for the caller to move focus there. */
export type FocusTarget = "name" | "slug" | "colour" | { element: number } | null;

type Saved = { version: number; unformatted_name: string };

const SAVE_TOAST = "article-save";

/**
 * Save with the version the page loaded: 200 moves the version on, 409 stale_version keeps the draft and
 * says so, 400 and the address conflict point at their field, 413 says the article is too large.
 */
export function useSaveArticle(articleId: number, initialVersion: number) {
  const { t } = useTranslation();
  const [version, setVersion] = useState(initialVersion);
  const [busy, setBusy] = useState(false);
  const [stale, setStale] = useState(false);
  const [errors, setErrors] = useState<SaveErrors>({});

  function slugMessage(problem: ReturnType<typeof slugProblem>) {
    if (problem === "empty") return t("editor.slugEmpty");
    if (problem === "too_long") return t("editor.slugTooLong", { max: SLUG_MAX_LENGTH });
    return problem ? t("editor.slugInvalid") : undefined;
  }

  /** Checks that need no server; returns the errors found (empty when all is well). */
  function check(draft: Draft): SaveErrors {
    const name = nameProblem(draft.name);
    return {
      name: name ? t(`errors.reasons.${name}`, { max: NAME_MAX_LENGTH }) : undefined,
      slug: slugMessage(slugProblem(draft.metadatas.url)),
      colour: colourProblem(draft.metadatas.backgroundColor) ? t("editor.colourInvalid") : undefined,
    };
  }

  async function save(draft: Draft, onSaved: (saved: Saved) => void): Promise<FocusTarget> {
    if (busy) return null;
    const found = check(draft);
    if (found.name || found.slug || found.colour) {
      setErrors({ ...found, general: t("editor.fixErrors") });
      return found.name ? "name" : found.slug ? "slug" : "colour";
    }
    setBusy(true);
    setErrors({});
    toast.loading(t("editor.saving"), { id: SAVE_TOAST });
    const result = await callApi<Saved>("/api/manage/update_article", {
      articleId,
      version,
      unformatted_name: draft.name,
      newContent: contentOf(draft),
    });
    setBusy(false);
    if (result.ok) {
      setVersion(result.data.version);
      setStale(false);
      onSaved(result.data);
      toast.success(t("editor.saved"), { id: SAVE_TOAST, duration: 5000 });
      return null;
    }
    toast.error(t("editor.saveError"), { id: SAVE_TOAST, duration: 5000 });
    const { status, error } = result;
    if (status === 409 && error.reason === "stale_version") {
      setStale(true);
      return null;
    }
    if (status === 409 && error.field === "newContent.0.url") {
      setErrors({ slug: t("editor.slugTaken") });
      return "slug";
    }
    if (status === 413) {
      setErrors({ general: t("editor.tooLarge") });
      return null;
    }
    const message = apiErrorMessage(t, result);
    if (status === 400) {
      const field = error.field ?? "";
      const index = elementIndexOfField(field);
      const target: FocusTarget =
        field === "unformatted_name" ? "name" : field === "newContent.0.url" ? "slug" : field.startsWith("newContent.0.") ? "colour" : index !== null ? { element: index } : null;
      if (target === "name" || target === "slug" || target === "colour") setErrors({ [target]: message });
      else if (index !== null) setErrors({ element: { index, message: t("editor.elementError", { message }) } });
      if (target) return target;
    }
    setErrors({ general: message });
    return null;
  }

  /** After a reload from the server: its version, and nothing stale or wrong any more. */
  function reset(nextVersion: number) {
    setVersion(nextVersion);
    setStale(false);
    setErrors({});
  }

  /** Another call (publishing) found the version stale: the same alert as a refused save. */
  const markStale = () => setStale(true);

  return { version, busy, stale, errors, setErrors, save, reset, slugMessage, markStale };
}
