// ESLint (flat config): TypeScript and React hooks rules, and the house's layers
// (docs/frontend.md "Layers"): app -> features -> components -> lib; no feature imports another;
// lib/ holds only code shared by several features.
import js from "@eslint/js";
import boundaries from "eslint-plugin-boundaries";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["dist/", "node_modules/", "test-results/", "playwright-report/", "src/lib/api/schema.gen.ts"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ["**/*.{ts,tsx,js,mjs}"],
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
  },
  {
    files: ["**/*.{ts,tsx}"],
    plugins: { "react-hooks": reactHooks },
    rules: {
      "react-hooks/rules-of-hooks": "error",
      "react-hooks/exhaustive-deps": "warn",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
    },
  },
  {
    // Production code only: a test may reach across features to check how they fit together.
    files: ["src/**/*.{ts,tsx}"],
    ignores: ["src/**/*.test.{ts,tsx}", "src/test/**"],
    plugins: { boundaries },
    settings: {
      "import/resolver": { node: { extensions: [".ts", ".tsx", ".js"] } },
      "boundaries/include": ["src/**/*"],
      "boundaries/elements": [
        { type: "app", pattern: "src/app", mode: "folder" },
        { type: "feature", pattern: "src/features/*", mode: "folder", capture: ["feature"] },
        { type: "components", pattern: "src/components", mode: "folder" },
        { type: "lib", pattern: "src/lib/*", mode: "folder", capture: ["lib"] },
        { type: "entry", pattern: "src/main.tsx", mode: "file" },
      ],
    },
    rules: {
      "boundaries/element-types": ["error", {
        default: "disallow",
        rules: [
          { from: "entry", allow: ["app", "lib"] },
          { from: "app", allow: ["app", "feature", "components", "lib"] },
          { from: "feature", allow: ["lib", "components", ["feature", { feature: "${from.feature}" }]] },
          { from: "components", allow: ["components", "lib"] },
          { from: "lib", allow: ["lib"] },
        ],
      }],
    },
  },
);
