export function httpD1(options: { base: string; account: string; token: string; databaseId: string; fetchImpl?: typeof fetch }): D1Database;
export function httpKv(options: { base: string; account: string; token: string; namespaceId: string; fetchImpl?: typeof fetch }): KVNamespace;
export function remoteBindings(environment?: Record<string, string | undefined>, tomlPath?: string): Promise<Record<string, unknown>>;
