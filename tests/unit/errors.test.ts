import { describe, expect, it } from "vitest";
import { z } from "zod";
import { DomainError, isUniqueViolation, notFound } from "~/errors";
import { addFolderSchema, moveItemSchema } from "~/models/tree-input";
import { orPageError } from "~/utils/page.server";
import { zodToDomainError } from "~/utils/zod-error";

describe("DomainError", () => {
  it("takes its status from its code and serialises to the API's body", () => {
    const error = new DomainError("conflict", "taken", "id", "name_taken");
    expect(error.status).toBe(409);
    expect(error.toBody()).toEqual({ error: { code: "conflict", message: "taken", field: "id", reason: "name_taken" } });
    expect(notFound("Article", "articleId").status).toBe(404);
  });

  it("recognises D1's unique-index failures, wrapped or not", () => {
    const d1 = new Error("D1_ERROR: UNIQUE constraint failed: folders.museum_id, folders.name: SQLITE_CONSTRAINT");
    expect(isUniqueViolation(d1)).toBe(true);
    expect(isUniqueViolation(new Error("Failed query: insert …", { cause: d1 }))).toBe(true);
    expect(isUniqueViolation(new Error("no such table"))).toBe(false);
    expect(isUniqueViolation(null)).toBe(false);
  });
});

describe("zodToDomainError", () => {
  const refusal = (schema: z.ZodTypeAny, input: unknown) => {
    const parsed = schema.safeParse(input);
    if (parsed.success) throw new Error("expected a refusal");
    return zodToDomainError(parsed.error).toBody().error;
  };

  it("names the field with a reason code and an English message", () => {
    expect(refusal(addFolderSchema, { pathArray: [], id: "a/b" })).toEqual({
      code: "invalid_input",
      message: "id cannot contain /",
      field: "id",
      reason: "slash",
    });
    expect(refusal(addFolderSchema, { pathArray: ["ok", 42] })).toMatchObject({ field: "pathArray.1", reason: "wrong_type" });
    expect(refusal(addFolderSchema, { pathArray: [] })).toMatchObject({ field: "id", reason: "required" });
    expect(refusal(addFolderSchema, { pathArray: Array(51).fill("a"), id: "x" })).toMatchObject({ field: "pathArray", reason: "too_many" });
    expect(refusal(moveItemSchema, { itemId: "a", toFolderId: "." })).toMatchObject({ field: "toFolderId", reason: "dot_name" });
  });

  it("never repeats the refused value, however large", () => {
    const huge = "x".repeat(1_000_000);
    for (const input of [{ pathArray: [], id: `${huge}/` }, { pathArray: huge, id: "a" }, { type: huge }]) {
      const schema = "type" in input ? z.object({ type: z.enum(["article", "folder"]) }) : addFolderSchema;
      expect(JSON.stringify(refusal(schema, input)).length).toBeLessThan(200);
    }
  });
});

describe("orPageError", () => {
  it("turns a model's domain error into a route error response with its status", async () => {
    const thrown = await orPageError(Promise.reject(notFound("Article", "articleId"))).catch((e: unknown) => e);
    expect(thrown).toMatchObject({ init: { status: 404 }, data: { error: { code: "not_found", field: "articleId" } } });
  });

  it("lets other failures through untouched", async () => {
    const boom = new Error("boom");
    await expect(orPageError(Promise.reject(boom))).rejects.toBe(boom);
    await expect(orPageError(Promise.resolve(42))).resolves.toBe(42);
  });
});

describe("zodToDomainError with members a call does not take", () => {
  it("names the first unknown member, cut to 64 characters", () => {
    const schema = z.object({}).strict();
    const parsed = schema.safeParse({ surprise: 1 });
    expect(parsed.success).toBe(false);
    if (!parsed.success) expect(zodToDomainError(parsed.error).toBody().error).toMatchObject({ field: "surprise", reason: "invalid" });
    const huge = schema.safeParse({ ["k".repeat(100_000)]: 1 });
    if (!huge.success) expect(zodToDomainError(huge.error).field).toHaveLength(64);
  });
});
