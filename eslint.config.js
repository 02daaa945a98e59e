import js from "@eslint/js";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

export default tseslint.config(
  {
    ignores: [
      "build/",
      "node_modules/",
      "**/.wrangler/",
      "test-results/",
      "playwright-report/",
      "**/worker-configuration.d.ts",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ["**/*.{ts,tsx}"],
    plugins: { "react-hooks": reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/consistent-type-imports": ["error", { fixStyle: "inline-type-imports" }],
      "no-restricted-syntax": [
        "error",
        {
          selector: "TSAsExpression > CallExpression[callee.property.name='get'][callee.object.name=/form/i]",
          message: "Parse form data with zod instead of casting formData.get().",
        },
      ],
    },
  },
  {
    // Layers (decision 036): pure helpers (lib), the domain (models, content, translation, the queue's
    // aggregation, QR drawing) never reach up into pages, components or HTTP plumbing; lib reaches nothing.
    files: ["app/models/**", "app/content/**", "app/translation/**", "app/queue/**", "app/qrcode/**", "app/lib/**", "app/errors.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            { group: ["~/routes/*", "~/components/*", "~/hooks/*", "~/visitor/*", "**/routes/*", "**/components/*"], message: "The domain layer may not import pages, components or the visitor's views." },
            { group: ["~/utils/*", "**/utils/*"], message: "The domain layer may not import HTTP helpers (app/utils); move a pure helper to app/lib." },
            { group: ["@remix-run/*", "!@remix-run/cloudflare"], message: "The domain layer does not depend on Remix." },
          ],
        },
      ],
    },
  },
  {
    files: ["app/lib/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        { patterns: [{ group: ["~/*", "!~/lib/*", "!~/errors"], message: "app/lib holds pure helpers: it imports only app/lib and app/errors." }] },
      ],
    },
  },
  {
    files: ["scripts/**/*.mjs", "*.config.{js,ts}", "tests/**/*.{ts,mjs}"],
    languageOptions: { globals: { ...globals.node } },
  },
);
