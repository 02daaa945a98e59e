import type { AppLoadContext } from "@remix-run/cloudflare";
import { easyReadEnginesFrom } from "~/easy-read/engines";
import type { EasyReadDeps } from "~/easy-read/easy-read.server";
import type { AiRunner } from "~/translation/engines/types";

const cache = new WeakMap<object, EasyReadDeps["engines"]>();

/** The easy-to-read rewriters of this deployment (its LLM engines, decision 095), built once per env. */
export function easyReadDeps(context: AppLoadContext): EasyReadDeps {
  const env = context.cloudflare.env as unknown as { AI?: unknown };
  let engines = cache.get(env);
  if (!engines) cache.set(env, (engines = easyReadEnginesFrom(context.config, env.AI as AiRunner | undefined)));
  return { db: context.db, engines };
}
