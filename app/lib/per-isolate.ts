/**
 * State kept for the life of an isolate, held on `globalThis` under a registered symbol: workers/app.ts and the
 * Remix server build each bundle their own copy of the modules they share, and both copies must see one value.
 */
export function perIsolate<T>(name: string, make: () => T): T {
  const key = Symbol.for(`muselingo.${name}`);
  const holder = globalThis as unknown as Record<symbol, T | undefined>;
  return (holder[key] ??= make());
}
