export const APP_TOML: string;
export const CONSUMER_TOML: string;
export const PLACEHOLDER_D1: string;
export const PLACEHOLDER_KV: string;
export const NAMES: Record<"app" | "consumer" | "database" | "kvTitle" | "bucket" | "queue" | "dlq", string>;
export class StepError extends Error {
  constructor(step: string, result: { message?: string; code?: number });
  step: string;
  detail: string;
}
export interface WranglerResult {
  ok: boolean;
  stdout: string;
  stderr: string;
  events: Array<Record<string, unknown>>;
  json: unknown;
  code: number | undefined;
  message: string | undefined;
  notLoggedIn: boolean;
}
export function wranglerJson(args: string[], options: { work: string; input?: string }): Promise<WranglerResult>;
export interface EngineSettings {
  list: string[];
  /** SPEECH_ENGINES (decision 090): workers-ai when unset, none when empty. */
  speech: string[];
  vars: Record<string, string>;
  hasAi: boolean;
}
export function readEngines(toml: string): EngineSettings;
export const REQUIRED_SETTINGS: Record<string, readonly string[]>;
export function engineProblems(engines: EngineSettings, secretNames: string[]): string[];
export function readIds(): { d1?: string; consumerD1?: string; kv?: string };
export function replaceInFile(file: string, pairs: Array<[string | undefined, string | undefined]>): void;
export const SCAN_QUEUE_RETENTION_SECONDS: number;
