import { vitePlugin as remix, cloudflareDevProxyVitePlugin } from "@remix-run/dev";
import { defineConfig } from "vite";
import tsconfigPaths from "vite-tsconfig-paths";
import { getLoadContext } from "./app/load-context";

declare module "@remix-run/cloudflare" {
  interface Future {
    v3_singleFetch: true;
  }
}

export default defineConfig(({ command }) => ({
  plugins: [
    cloudflareDevProxyVitePlugin({ getLoadContext, remoteBindings: false } as Parameters<typeof cloudflareDevProxyVitePlugin>[0]),
    remix({
      future: {
        v3_fetcherPersist: true,
        v3_relativeSplatPath: true,
        v3_throwAbortReason: true,
        v3_lazyRouteDiscovery: true,
        v3_singleFetch: true,
        v3_routeConfig: true,
      },
    }),
    tsconfigPaths(),
  ],
  // The production bundle runs in workerd, so it takes every dependency in; `vite dev` renders in Node.
  ssr:
    command === "build"
      ? {
          resolve: {
            conditions: ["workerd", "worker", "browser"],
            externalConditions: ["workerd", "worker"],
          },
          target: "webworker" as const,
          noExternal: true,
          // qrcode-svg imports fs for a save-to-file helper we never call; workerd's nodejs_compat provides it.
          external: ["fs"],
        }
      : undefined,
  build: {
    minify: true,
    // Vite's manifest of the client build: Remix moves it to build/.vite/client-manifest.json (outside the
    // deployed assets), where tests/bench/editor-js.mjs reads it to weigh what a page loads.
    manifest: true,
    rollupOptions: {
      onwarn(warning, warn) {
        // Resource routes (api.*, session, logout…) export no component: their client chunk is empty by design.
        if (warning.code === "EMPTY_BUNDLE") return;
        warn(warning);
      },
    },
  },
}));
