export const ROOT: string;
export const PBKDF2_ITERATIONS: number;
export const DEMO: { museumSlug: string; museumName: string; email: string; password: string };
export function hashPassword(password: string): string;
export function sqlString(value: unknown): string;
export function d1Target(options?: { remote?: boolean; persistTo?: string }): string[];
export function d1Query(sql: string, target: string[], binding?: string): Record<string, unknown>[];
export function d1QueryAll(sql: string, target: string[], binding?: string): Record<string, unknown>[][];
export function d1ExecFile(sql: string, target: string[], binding?: string): void;
export function applyMigrations(target: string[], options?: { quiet?: boolean; before?: string }): Promise<void>;
export function pendingMigrations(target: string[]): Promise<string[]>;
export function ensureSchema(target: string[], options?: { migrate?: boolean }): Promise<void>;
export class SchemaError extends Error {}
export interface AccountEntry {
  museumSlug: string;
  museumName?: string;
  email?: string;
  passwordHash?: string;
  /** The shard a new museum goes to (an existing museum stays where the directory has it). */
  shard?: number;
  /** "eu" for a museum whose data stays in the EU (on an EU shard); "" otherwise. */
  jurisdiction?: string;
}
export function directoryAccountsSql(entries: AccountEntry[]): string;
export function shardAccountsSql(entries: (AccountEntry & { museumId: number })[]): string;
export function createAccounts<E extends AccountEntry>(entries: E[], target: string[]): (E & { museumId: number; shard: number })[];
export function bindingOfShard(k: number): string;
export function shardSizes(target: string[]): { shard: number; bytes: number; museums: number }[];
export function roomiestShard(sizes: { shard: number; bytes: number; museums?: number }[]): number;
export const ENGINE_SETTINGS: readonly string[];
export class LocalEngineError extends Error {}
export function engineVarArgs(env?: Record<string, string | undefined>): string[];
export class PortError extends Error {}
export function parsePort(value: string | number, name?: string): number;
export function portBusy(port: number, host?: string): Promise<string | null>;
export function nextFreePort(port: number, host?: string, tries?: number): Promise<number | null>;
export function ensureDevVars(file?: string): void;
export function needsLocalSpeechService(env?: Record<string, string | undefined>): boolean;
export class UsageError extends Error {}
export function readOptions(
  argv: string[],
  options: Record<string, "string" | "boolean">,
  settings?: { positionals?: boolean },
): { values: Record<string, string | boolean | undefined>; positionals: string[] };
export function parseOptions(
  argv: string[],
  options: Record<string, "string" | "boolean">,
  settings?: { positionals?: boolean },
): { values: Record<string, string | boolean | undefined>; positionals: string[] };
