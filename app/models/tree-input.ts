import { z } from "zod";

// Folder names are ids in the spec's API and segments of /articles/* URLs, hence no slash.
export const folderNameSchema = z
  .string({ required_error: "Required", invalid_type_error: "Expected a folder name" })
  .trim()
  .min(1, "A folder name cannot be empty")
  .max(100, "A folder name holds at most 100 characters")
  .refine((name) => !name.includes("/"), "A folder name cannot contain /")
  // eslint-disable-next-line no-control-regex
  .refine((name) => !/[\u0000-\u001f\u007f]/.test(name), "A folder name cannot contain control characters");

export const pathArraySchema = z.array(folderNameSchema, { invalid_type_error: "Expected a list of folder names" }).max(50);

export const articleIdSchema = z.union(
  [z.number().int().positive(), z.string().regex(/^\d{1,15}$/, "Expected an article id").transform(Number)],
  { errorMap: () => ({ message: "Expected an article id (a positive integer)" }) },
);

export const articleNameSchema = z
  .string({ required_error: "Required" })
  .trim()
  .min(1, "A name cannot be empty")
  .max(200, "A name holds at most 200 characters");

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
      errorMap: () => ({ message: "Expected an article id or a folder name" }),
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
        ctx.addIssue({ code: "custom", path: ["itemId"], message: "Expected an article id" });
        return z.NEVER;
      }
      return { ...input, type, itemId: parsed.data } as const;
    }
    const parsed = folderNameSchema.safeParse(input.itemId);
    if (!parsed.success) {
      ctx.addIssue({ code: "custom", path: ["itemId"], message: parsed.error.issues[0]?.message ?? "Expected a folder name" });
      return z.NEVER;
    }
    return { ...input, type, itemId: parsed.data } as const;
  });
export const restoreItemSchema = z.object({
  type: z.enum(["article", "folder"]),
  id: z.number({ invalid_type_error: "Expected the trash item's id" }).int().positive(),
});
export const articleQuerySchema = z.object({ articleId: articleIdSchema });

export type TreeNode =
  | { type: "folder"; id: string; name: string; children: TreeNode[] }
  | { type: "article"; id: number; name: string };
