import { drizzle } from "drizzle-orm/d1";
import { watchVisitorWrites } from "../visitor-cache/changes.server";
import * as schema from "./schema";

export type Database = ReturnType<typeof createDb>;

/**
 * The app's database handle. Its D1 client is watched for writes to the tables visitor pages read (decision
 * 132), so that whoever writes through it, `publishVisitorChanges` afterwards publishes the museums changed.
 */
export function createDb(d1: D1Database) {
  return drizzle(watchVisitorWrites(d1), { schema });
}
