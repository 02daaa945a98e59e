export const SHARD_ID_SPAN: number;
export function shardSeedSql(k: number): string;
export interface D1BindingConfig {
  binding: string | null;
  database_name: string | null;
  database_id: string | null;
  migrations_dir: string | null;
  jurisdiction: string | null;
  shard: number | null;
}
export function d1Bindings(tomlPath?: string): D1BindingConfig[];
export function shardBindings(): D1BindingConfig[];
export function r2Buckets(tomlPath?: string): { binding: string | null; bucket_name: string | null; jurisdiction: string | null }[];
export function euShardsProblem(tomlPath?: string): string | null;
