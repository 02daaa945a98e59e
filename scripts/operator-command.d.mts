export class UsageError extends Error {}
export const OPERATOR_OPTIONS: Record<string, string>;
export const SETUP_TTL_MS: number;
export function parseOperatorCommand(argv: string[]): { email: string; remote: boolean; persistTo?: string; baseUrl?: string };
export function operatorCreateSteps(
  plan: { email: string },
  now?: number,
  random?: (size: number) => Buffer,
): { secret: string; token: string; tokenHash: string; sql: string; path: string };
