// ESLint for the browser client (plain ES modules, no build) and its node unit tests:
// the recommended rules, browser globals for the served files, node's for the tests.
import js from "@eslint/js";
import globals from "globals";

export default [
  { ignores: ["node_modules/", ".venv/", "build/", "dist/", "site/", "mutants/"] },
  js.configs.recommended,
  {
    files: ["src/cambio/web/static/**/*.js"],
    languageOptions: { ecmaVersion: 2025, sourceType: "module", globals: { ...globals.browser } },
  },
  {
    // The offline engine and the service worker run in workers.
    files: ["src/cambio/web/static/offline/engine.js", "src/cambio/web/static/offline/sw.js"],
    languageOptions: { globals: { ...globals.worker, ...globals.serviceworker } },
  },
  {
    // A template: the server writes the build's names in place of these (server/offline.py).
    files: ["src/cambio/web/static/offline/sw.js"],
    languageOptions: {
      globals: Object.fromEntries(["__BUILD__", "__SHELL__", "__FALLBACK__", "__PYODIDE__",
        "__PYODIDE_FILES__"].map((name) => [name, "readonly"])),
    },
  },
  {
    files: ["tests/js/**/*.js", "eslint.config.js"],
    languageOptions: { ecmaVersion: 2025, sourceType: "module", globals: { ...globals.node } },
  },
  {
    rules: {
      "no-unused-vars": ["error", { argsIgnorePattern: "^_", caughtErrors: "none" }],
      eqeqeq: ["error", "always", { null: "ignore" }],
      "prefer-const": "error",
    },
  },
];
