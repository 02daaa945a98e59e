import { is } from "drizzle-orm";
import { getTableConfig, SQLiteTable } from "drizzle-orm/sqlite-core";
import { describe, expect, it } from "vitest";
import { DATA_FILES, MANIFEST_PATH, OPTIONAL_DATA_FILES } from "~/archive/format";
import { ARCHIVE_TABLES, OCCUPYING_TABLES } from "~/archive/tables";
import * as schema from "~/db/schema";

// Decision 135: every table of the schema is archived or excluded with a reason; a table added without that
// decision fails here (and tests/integration/archive-tables.test.ts checks the tables D1 really has).

const tables = (Object.values(schema) as unknown[]).flatMap((value) => (is(value, SQLiteTable) ? [getTableConfig(value)] : []));

describe("the museum archive's tables (decision 135)", () => {
  it("reads 28 tables from the schema, each with a decision, and no decision for a table that does not exist", () => {
    const names = tables.map((t) => t.name).sort();
    expect(names.length).toBeGreaterThanOrEqual(28);
    const undecided = names.filter((name) => !(name in ARCHIVE_TABLES));
    expect(undecided, "tables of app/db/schema.ts with no line in app/archive/tables.ts").toEqual([]);
    expect(Object.keys(ARCHIVE_TABLES).sort()).toEqual(names);
  });

  it("every museum-owned table (a museum_id column, or a reference to such a table) is in the plan", () => {
    const owned = tables.filter((t) => t.columns.some((c) => c.name === "museum_id") || t.foreignKeys.length > 0).map((t) => t.name);
    expect(owned).toContain("tour_stops");
    for (const name of owned) expect(ARCHIVE_TABLES, name).toHaveProperty(name);
  });

  it("an archived table names a file the archive writes; an excluded one says why in a sentence", () => {
    const files = new Set<string>([MANIFEST_PATH, ...Object.values(DATA_FILES), ...Object.values(OPTIONAL_DATA_FILES)]);
    for (const [name, plan] of Object.entries(ARCHIVE_TABLES)) {
      if ("archived" in plan) expect(files, name).toContain(plan.archived);
      else expect(plan.excluded.length, name).toBeGreaterThan(30);
    }
    // Every data file carries at least one table.
    const used = new Set(Object.values(ARCHIVE_TABLES).flatMap((plan) => ("archived" in plan ? [plan.archived] : [])));
    for (const file of files) expect(used, file).toContain(file);
  });

  it("what makes a museum not empty for an import is unchanged: articles, folders, QR codes, tours, easy-to-read versions, narrations", () => {
    expect([...OCCUPYING_TABLES].sort()).toEqual(["articles", "easy_read_versions", "folders", "narrations", "qrcodes", "tours"]);
    for (const name of OCCUPYING_TABLES) expect(ARCHIVE_TABLES[name]).toHaveProperty("archived");
  });
});
