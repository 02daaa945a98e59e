import { z } from "zod";
import { articleContentSchema } from "~/content/schema";
import { articleIdSchema, itemNameSchema } from "./tree-input";

/**
 * The spec's `update_article {articleId, newContent, unformatted_name}`, plus the `version` the editor
 * loaded: optional, so the spec's payload still saves, but a save naming an older version is refused.
 * The public address (slug) is `newContent[0].url`, the metadatas element's.
 */
export const updateArticleSchema = z.object({
  articleId: articleIdSchema,
  newContent: articleContentSchema,
  unformatted_name: itemNameSchema.optional(),
  version: z.number({ invalid_type_error: "wrong_type" }).int().positive().max(Number.MAX_SAFE_INTEGER).optional(),
});
export type UpdateArticleInput = z.infer<typeof updateArticleSchema>;
