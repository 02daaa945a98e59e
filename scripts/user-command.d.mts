export type UserPlan =
  | {
      command: "create";
      email: string;
      password: string;
      museum: string;
      museumName?: string;
      shard?: number;
      eu?: boolean;
      remote: boolean;
      persistTo?: string;
    }
  | { command: "reset-password"; email: string; password: string; remote: boolean; persistTo?: string };
export const USER_OPTIONS: Record<"create" | "reset-password", Record<string, "string" | "boolean">>;
export { UsageError } from "./lib.mjs";
export function parseUserCommand(argv: string[]): UserPlan;
export function userLookupSql(plan: UserPlan): string;
export function userCommandSteps(
  plan: UserPlan,
  rows: Record<string, unknown>[][],
  placement?: { roomiest?: number; shards?: number[]; euShards?: number[] },
): { shard: number; directorySql: string | null; shardSql: (museum: { id: number; shard: number } | null | undefined) => string; message: string };
