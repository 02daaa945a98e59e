export const PBKDF2_ITERATIONS: number;
export function hashPassword(password: string): string;
