// @ts-check
// Every theme's text is readable: the WCAG contrast of each main text/background pair of
// app.css's custom properties is at least 4.5:1, in the light theme (:root), the dark theme
// (:root[data-theme="dark"]), and the dark theme the system asks for (whose block must hold
// the same values). The four-colour suits are checked on the card face.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";

const CSS = readFileSync(new URL("../../src/cambio/web/static/app.css", import.meta.url), "utf8");

/** The custom properties declared in the first block that starts with `selector {`.
 * @param {string} selector @returns {Record<string, string>} */
function block(selector) {
  const start = CSS.indexOf(`${selector} {`);
  assert.ok(start >= 0, `no block ${selector}`);
  const body = CSS.slice(start, CSS.indexOf("}", start));
  return Object.fromEntries([...body.matchAll(/(--[\w-]+):\s*(#[0-9a-fA-F]{3,6})\s*;/g)]
    .map((m) => [m[1], m[2]]));
}

const light = block(":root");
const dark = { ...light, ...block(':root[data-theme="dark"]') };
const systemDark = { ...light, ...block(':root:not([data-theme="light"])') };

/** @param {string} hex @returns {number} WCAG relative luminance */
function luminance(hex) {
  const h = hex.length === 4 ? [...hex.slice(1)].map((c) => c + c).join("") : hex.slice(1);
  const [r, g, b] = [0, 2, 4].map((i) => parseInt(h.slice(i, i + 2), 16) / 255)
    .map((c) => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}
/** @param {string} a @param {string} b */
function contrast(a, b) {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

/** [text, background]: a variable name or a literal colour the CSS uses with them. */
const PAIRS = [
  ["#fff", "--felt"], ["#fff", "--felt-2"], ["#fff", "--felt-3"],
  ["--muted-on-felt", "--felt"], ["--muted-on-felt", "--felt-3"],
  ["--accent", "--felt"], ["--accent", "--felt-3"],
  ["--ink", "--paper"], ["--muted", "--paper"], ["--link-in-panel", "--paper"],
  ["--ink", "--surface"], ["--muted", "--surface"],
  ["--ink", "--highlight"], ["--muted", "--highlight"], ["--ink", "--chip"],
  ["--ink", "--selected"], ["--muted", "--selected"], ["--link-in-panel", "--surface"],
  ["--accent-ink", "--accent"], ["#fff", "--red"], ["#fff", "--felt-2"],
  ["--red", "#fff"], ["#111", "#fff"],
  ["#15703a", "#fff"], ["#1d4ed8", "#fff"],       // the four-colour suits' clubs, diamonds
];

for (const [name, theme] of Object.entries({ light, dark, "system dark": systemDark })) {
  test(`every main text is at least 4.5:1 on its background in the ${name} theme`, () => {
    /** @param {string} c */
    const value = (c) => (c.startsWith("--") ? theme[c] : c);
    const low = PAIRS.map(([fg, bg]) => [fg, bg, contrast(value(fg), value(bg))])
      .filter(([, , ratio]) => Number(ratio) < 4.5)
      .map(([fg, bg, ratio]) => `${fg} on ${bg}: ${Number(ratio).toFixed(2)}:1`);
    assert.deepEqual(low, []);
  });
}

test("the system's dark theme is the chosen dark theme", () => {
  assert.deepEqual(systemDark, dark);
  assert.notDeepEqual(dark, light);
});

test("the contrast formula gives WCAG's reference values", () => {
  assert.equal(contrast("#000", "#fff").toFixed(1), "21.0");
  assert.equal(contrast("#777777", "#fff").toFixed(2), "4.48");
});
