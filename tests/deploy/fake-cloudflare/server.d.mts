export const ACCOUNT_ID: string;
export const SUBDOMAIN: string;
export interface FakeFailure {
  method: string;
  path: RegExp;
  times?: number;
}
export interface FakeCall {
  method: string;
  path: string;
  query: Record<string, string>;
  status: number;
  [key: string]: unknown;
}
export interface FakeState {
  d1: Array<{ uuid: string; name: string; migrations: Array<{ id: number; name: string }>; jurisdiction: string | null }>;
  kv: Array<{ id: string; title: string }>;
  r2: Array<{ name: string; jurisdiction: string }>;
  queues: Array<{ queue_id: string; queue_name: string }>;
  scripts: Record<string, unknown>;
}
export function startFakeCloudflare(options?: { port?: number; fail?: FakeFailure | null; state?: FakeState }): Promise<{
  url: string;
  calls: FakeCall[];
  state: FakeState;
  setFailure(next: FakeFailure | null): void;
  close(): Promise<void>;
}>;
