import { z } from "zod";
import { articleIdSchema } from "~/models/tree-input";

/** A version number: 1, 2, … as a JSON number or, in a query string, its digits. */
export const versionNumberSchema = z.union(
  [
    z
      .number()
      .int()
      .positive()
      .max(2 ** 31 - 1),
    z
      .string()
      .regex(/^[1-9]\d{0,9}$/)
      .transform(Number)
      .pipe(z.number().max(2 ** 31 - 1)),
  ],
  { errorMap: () => ({ message: "wrong_type" }) },
);

/** `GET /api/read/article_versions?id=` */
export const articleVersionsQuerySchema = z.object({ id: articleIdSchema });
/** `GET /api/read/article_version?id=&version=` */
export const articleVersionQuerySchema = z.object({ id: articleIdSchema, version: versionNumberSchema });
/** `POST /api/manage/restore_article_version {id, version}` */
export const restoreArticleVersionSchema = z.object({ id: articleIdSchema, version: versionNumberSchema });
