export const E2E_PERSIST_TO: string;
export const e2eTarget: string[];
export const E2E_SLUG_PREFIX: string;
export const POOL_SIZE: number;
export const OWNED: readonly string[];
export function poolStaff(
  count: number,
  run: string,
  password: string,
): { email: string; museumSlug: string; museumName: string; passwordHash: string; shard: number }[];
export function createPool(count?: number): Promise<number>;
export function readPool(): { password: string; staff: { email: string; museumSlug: string; museumName: string; museumId: number; shard: number }[] };
export function claimStaff(): { email: string; password: string; museumSlug: string; museumName: string; shard: number } | null;
export function deleteE2eMuseums(): number;
export function beginTest(): number;
export function endTest(): void;
export function exclusively<T>(work: () => T): { result: T; waited: number };
