import { data, type AppLoadContext } from "@remix-run/cloudflare";
import { asDomainError, notFound, type DomainError } from "~/errors";
import { isArticleInTrash, isFolderPathInTrash } from "~/models/trashed.server";
import { refusePage } from "./page.server";

/**
 * A staff page's 404 for something that is in the trash: `refusePage`'s body with `trashed: true`, so the
 * page's error boundary says it was deleted and where to restore it (decision 136). The trash is looked up only
 * once the page already answers 404, and only in the member's own museum.
 */
function refuseTrashed(error: DomainError): never {
  throw data({ ...error.toBody(), trashed: true }, { status: error.status });
}

/** `orPageError` for a page of one article: a 404 for an article in the trash says so. */
export async function orArticlePageError<T>(context: AppLoadContext, museumId: number, articleId: number, work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (caught) {
    const error = asDomainError(caught);
    if (!error) throw caught;
    if (error.code === "not_found" && (await isArticleInTrash(context.db, museumId, articleId))) refuseTrashed(error);
    refusePage(error);
  }
}

/** The folder page's 404 for a path that names no live folder; it says so when the folder is in the trash. */
export async function refuseMissingFolder(context: AppLoadContext, museumId: number, path: readonly string[]): Promise<never> {
  const error = notFound("Folder", "path");
  if (await isFolderPathInTrash(context.db, museumId, path)) refuseTrashed(error);
  refusePage(error);
}
