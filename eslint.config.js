import js from "@eslint/js";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

// Layers (decision 036): pure helpers (lib) reach nothing above them; the domain (models, content,
// translation, the queue's aggregation, QR drawing) never reaches up into pages, components, the visitor's
// views or HTTP plumbing; translation and content take what they need from models as arguments.
function layerRules() {
  const up = [
    {
      group: ["~/routes/*", "~/components/*", "~/hooks/*", "~/visitor/*", "**/routes/*", "**/components/*"],
      message: "The domain layer may not import pages, components or the visitor's views.",
    },
    { group: ["~/utils/*", "**/utils/*"], message: "The domain layer may not import HTTP helpers (app/utils); move a pure helper to app/lib." },
    { group: ["@remix-run/*", "!@remix-run/cloudflare"], message: "The domain layer does not depend on Remix." },
  ];
  const models = { group: ["~/models/*"], message: "Translation and content get what they need from models as arguments (TranslationDeps), not by import." };
  const restrict = (patterns) => ({ rules: { "no-restricted-imports": ["error", { patterns }] } });
  return [
    {
      files: [
        "app/models/**",
        "app/queue/**",
        "app/qrcode/**",
        "app/teams/**",
        "app/publishing/**",
        "app/audit/**",
        "app/import/**",
        "app/xliff/**",
        "app/archive/**",
        "app/tours/**",
        "app/offline/**",
        "app/easy-read/**",
        "app/narration/**",
        "app/errors.ts",
      ],
      ...restrict(up),
    },
    { files: ["app/translation/**", "app/content/**", "app/speech/**"], ...restrict([...up, models]) },
    {
      files: ["app/lib/**"],
      ...restrict([{ group: ["~/*", "!~/lib/*", "!~/errors"], message: "app/lib holds pure helpers: it imports only app/lib and app/errors." }]),
    },
  ];
}

export default tseslint.config(
  {
    ignores: ["build/", "node_modules/", "**/.wrangler/", "test-results/", "playwright-report/", "**/worker-configuration.d.ts"],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ["**/*.{ts,tsx}"],
    plugins: { "react-hooks": reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      // eslint-plugin-react-hooks 7 adds rules written for the React Compiler. Two of them judge patterns this
      // React 18 app (no compiler) uses on purpose: moving focus after a render by setting state in an effect
      // (set-state-in-effect), and refs read while rendering to keep a callback stable (refs). Off, with the
      // decision in docs/decisions/128-current-toolchain.md; every other compiler rule stays on and passes.
      "react-hooks/set-state-in-effect": "off",
      "react-hooks/refs": "off",
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
  ...layerRules(),
  {
    // The offline visit's browser scripts (decision 087): a service worker and a classic page script.
    files: ["app/offline/*.js"],
    languageOptions: { sourceType: "script", globals: { ...globals.serviceworker, ...globals.browser } },
  },
  {
    files: ["scripts/**/*.mjs", "*.config.{js,ts}", "tests/**/*.{ts,mjs}"],
    languageOptions: { globals: { ...globals.node } },
  },
  {
    // Playwright's fixtures are functions that call a parameter named `use`: not React's `use` hook.
    files: ["tests/e2e/**"],
    rules: { "react-hooks/rules-of-hooks": "off" },
  },
);
