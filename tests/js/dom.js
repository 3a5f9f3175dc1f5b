// A DOM for the client's unit tests (linkedom): the globals the views use, installed once
// before a test module imports them. Views build nodes with document.createElement and test
// `instanceof HTMLElement`, so these must be the same window's classes.
import { parseHTML } from "linkedom";

const { window, document } = parseHTML("<!doctype html><html><head></head><body></body></html>");
const names = ["Node", "Element", "HTMLElement", "HTMLInputElement", "HTMLButtonElement",
  "HTMLTextAreaElement", "HTMLDetailsElement", "Event"];
const g = /** @type {Record<string, unknown>} */ (/** @type {unknown} */ (globalThis));
g.window = window;
g.document = document;
for (const name of names) g[name] = /** @type {Record<string, unknown>} */ (/** @type {unknown} */ (window))[name];

export { document, window };
