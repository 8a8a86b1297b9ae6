// ESLint for the app's own components (ui/components/*.js), pinned in package.json and run by
// tests/ui/test_front_end.py. Each file is an ES module that Streamlit's components v2 load in
// the page (no bundler): its default export draws the component.
import js from "@eslint/js";

const browser = Object.fromEntries(
  [
    "window", "document", "navigator", "performance", "fetch", "setTimeout", "clearTimeout",
    "requestAnimationFrame", "TextEncoder", "TextDecoder", "Node",
  ].map((name) => [name, "readonly"]),
);

export default [
  {
    files: ["ui/components/**/*.js"],
    ...js.configs.recommended,
    languageOptions: { ecmaVersion: 2022, sourceType: "module", globals: browser },
    rules: {
      ...js.configs.recommended.rules,
      "no-unused-vars": ["error", { caughtErrors: "none" }],
      eqeqeq: ["error", "always"],
      "no-var": "error",
      "prefer-const": "error",
    },
  },
];
