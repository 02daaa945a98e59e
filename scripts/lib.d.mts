export const PBKDF2_ITERATIONS: number;
export function hashPassword(password: string): string;
export function d1Query(sql: string, target: string[]): Record<string, unknown>[];
