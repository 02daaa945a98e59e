import { z } from "zod";

import { checkItemName } from "~/lib/names";

/** Folder and article names: the one rule of `checkItemName`; a refusal's message is its reason code. */
export const itemNameSchema = z.string({ required_error: "required", invalid_type_error: "wrong_type" }).transform((raw, ctx) => {
  const checked = checkItemName(raw);
  if (!checked.ok) {
    ctx.addIssue({ code: "custom", message: checked.problem });
    return z.NEVER;
  }
  return checked.name;
});

// Folder names are ids in the spec's API and segments of /articles/* URLs.
export const folderNameSchema = itemNameSchema;

export const pathArraySchema = z.array(folderNameSchema, { invalid_type_error: "wrong_type" }).max(50, "too_many");

export const articleIdSchema = z.union(
  [
    z.number().int().positive().max(Number.MAX_SAFE_INTEGER),
    z
      .string()
      .regex(/^[1-9]\d{0,14}$/)
      .transform(Number),
  ],
  { errorMap: () => ({ message: "wrong_type" }) },
);

export const articleNameSchema = itemNameSchema;

export const addArticleSchema = z.object({ pathArray: pathArraySchema.default([]) });
export const addFolderSchema = z.object({ pathArray: pathArraySchema.default([]), id: folderNameSchema });
export const renameArticleSchema = z.object({ articleId: articleIdSchema, newName: articleNameSchema });
export const renameFolderSchema = z.object({
  pathArray: pathArraySchema.default([]),
  itemName: folderNameSchema,
  newName: folderNameSchema,
});
export const deleteItemSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("article"), id: articleIdSchema, pathArray: pathArraySchema.optional() }),
  z.object({ type: z.literal("folder"), id: folderNameSchema, pathArray: pathArraySchema.default([]) }),
]);
/** `itemId` is an article id (a number) or a folder name (a string); `type` may say which. */
export const moveItemSchema = z
  .object({
    fromPathArray: pathArraySchema.default([]),
    itemId: z.union([z.number().int().positive(), z.string().min(1)], {
      errorMap: () => ({ message: "wrong_type" }),
    }),
    type: z.enum(["article", "folder"]).optional(),
    toPathArray: pathArraySchema.default([]),
    toFolderId: folderNameSchema.nullable(),
  })
  .transform((input, ctx) => {
    const type = input.type ?? (typeof input.itemId === "number" ? "article" : "folder");
    if (type === "article") {
      const parsed = articleIdSchema.safeParse(input.itemId);
      if (!parsed.success) {
        ctx.addIssue({ code: "custom", path: ["itemId"], message: "wrong_type" });
        return z.NEVER;
      }
      return { ...input, type, itemId: parsed.data } as const;
    }
    const parsed = folderNameSchema.safeParse(input.itemId);
    if (!parsed.success) {
      ctx.addIssue({ code: "custom", path: ["itemId"], message: parsed.error.issues[0]?.message ?? "invalid" });
      return z.NEVER;
    }
    return { ...input, type, itemId: parsed.data } as const;
  });
export const restoreItemSchema = z.object({
  type: z.enum(["article", "folder"]),
  id: z.number({ invalid_type_error: "wrong_type" }).int().positive(),
});
export const articleQuerySchema = z.object({ articleId: articleIdSchema });

export type TreeNode = { type: "folder"; id: string; name: string; children: TreeNode[] } | { type: "article"; id: number; name: string };
