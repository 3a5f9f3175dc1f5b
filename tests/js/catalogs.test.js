// @ts-check
// The catalog check (docs/i18n.md): every key the client uses is in every catalog, the
// catalogs agree on their keys, placeholders and plural shapes, and no user-facing text
// bypasses them -- neither a literal in the client's modules nor text in the HTML pages.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import { join, relative } from "node:path";
import ts from "typescript";
import { parseHTML } from "linkedom";

const WEB = new URL("../../src/cambio/web/", import.meta.url).pathname;
const STATIC = join(WEB, "static");
const LOCALES = join(STATIC, "locales");

/** @typedef {string | Record<string, string>} Entry */

/** @type {Record<string, Record<string, Entry>>} */
const catalogs = Object.fromEntries(readdirSync(LOCALES).filter((f) => f.endsWith(".json"))
  .map((f) => [f.slice(0, -5), JSON.parse(readFileSync(join(LOCALES, f), "utf8"))]));

/** @param {string} dir @returns {string[]} */
function modules(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    if (d.isDirectory()) return d.name === "locales" ? [] : modules(join(dir, d.name));
    return d.name.endsWith(".js") ? [join(dir, d.name)] : [];
  });
}

const SOURCES = modules(STATIC);
const PAGES = readdirSync(WEB).filter((f) => f.endsWith(".html")).map((f) => join(WEB, f));

/**
 * The allow-list: text that reads the same in every language, so it need not be a key --
 * the brand, card ranks and suits' letters, the dice board's coordinates and units of
 * notation. Anything without a letter (numbers, "·", "×", arrows, emoji) passes anyway.
 */
const SAME_IN_EVERY_LANGUAGE = new Set(["Cambio", "A", "J", "Q", "K", "Jo", "Joker"]);

/**
 * Modules whose words another branch converts (the tutorials): the check skips them while
 * they are listed, and fails once one has no literal left, so the list empties itself.
 */
/** @type {Set<string>} */
const CONVERTED_ELSEWHERE = new Set();

/** Attributes and properties whose value a user reads (or hears, from a screen reader). */
const SHOWN_ATTRS = new Set(["title", "aria-label", "ariaLabel", "placeholder", "alt",
  "aria-description", "aria-roledescription", "aria-valuetext", "textContent", "innerText",
  "label"]);
/** Functions that show one of their arguments as it is: the argument's index. */
const SHOWING_CALLS = /** @type {Record<string, number>} */ ({
  toast: 0, alert: 0, confirm: 0, prompt: 0, showBanner: 1,
});

/** @param {string} text */
const hasWords = (text) => !SAME_IN_EVERY_LANGUAGE.has(text.trim())
  && /\p{L}/u.test(text.replace(/\bCambio\b/g, ""));

/**
 * The literals an expression shows, looking through conditionals, `||`/`??`, `+`,
 * arrays and parentheses, and the text parts of template literals.
 * @param {ts.Node} node @param {(n: ts.Node, text: string) => void} report
 */
function shown(node, report) {
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) {
    if (hasWords(node.text)) report(node, node.text);
  } else if (ts.isTemplateExpression(node)) {
    const parts = [node.head.text, ...node.templateSpans.map((s) => s.literal.text)];
    if (parts.some(hasWords)) report(node, parts.join("…"));
    for (const span of node.templateSpans) shown(span.expression, report);
  } else if (ts.isConditionalExpression(node)) {
    shown(node.whenTrue, report);
    shown(node.whenFalse, report);
  } else if (ts.isBinaryExpression(node)) {
    const op = node.operatorToken.kind;
    if (op === ts.SyntaxKind.PlusToken) { shown(node.left, report); shown(node.right, report); }
    if (op === ts.SyntaxKind.BarBarToken || op === ts.SyntaxKind.QuestionQuestionToken
        || op === ts.SyntaxKind.AmpersandAmpersandToken) shown(node.right, report);
    if (op === ts.SyntaxKind.BarBarToken || op === ts.SyntaxKind.QuestionQuestionToken) {
      shown(node.left, report);
    }
  } else if (ts.isArrayLiteralExpression(node)) {
    node.elements.forEach((e) => shown(e, report));
  } else if (ts.isParenthesizedExpression(node) || ts.isAsExpression(node)) {
    shown(node.expression, report);
  }
}

/** @param {ts.Expression} callee */
const calleeName = (callee) => (ts.isIdentifier(callee) ? callee.text
  : ts.isPropertyAccessExpression(callee) ? callee.name.text : "");

/** @param {ts.PropertyName} name */
const propName = (name) => (ts.isIdentifier(name) || ts.isStringLiteral(name) ? name.text : "");

/**
 * Scan one module: the keys it passes to t() as literals (and the prefixes of keys it
 * builds, `t(\`power.${x}\`)`), and the user-facing literals that bypass t().
 * @param {string} file @param {string} [text] the module's text (read from file if absent)
 */
function scan(file, text = readFileSync(file, "utf8")) {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  /** @type {string[]} */ const keys = [];
  /** @type {string[]} */ const prefixes = [];
  /** @type {string[]} */ const literals = [];
  /** @param {ts.Node} n @param {string} what */
  const report = (n, what) => {
    const { line } = source.getLineAndCharacterOfPosition(n.getStart());
    literals.push(`${relative(STATIC, file)}:${line + 1}: ${JSON.stringify(what)}`);
  };
  /** @param {ts.Node} node */
  const visit = (node) => {
    if (ts.isCallExpression(node)) {
      const name = calleeName(node.expression);
      const [first, second] = node.arguments;
      if (name === "t" && first) {
        if (ts.isStringLiteral(first) || ts.isNoSubstitutionTemplateLiteral(first)) {
          keys.push(first.text);
        } else if (ts.isTemplateExpression(first)) {
          prefixes.push(first.head.text);
        }
      } else if (name === "h") {
        // Code and keys (h("code", …), h("kbd", …)) read the same in every language.
        const tag = first && ts.isStringLiteral(first) ? first.text.split(".")[0] : "";
        if (tag !== "code" && tag !== "kbd") node.arguments.slice(2).forEach((c) => shown(c, report));
        if (second && ts.isObjectLiteralExpression(second)) {
          for (const p of second.properties) {
            if (ts.isPropertyAssignment(p) && SHOWN_ATTRS.has(propName(p.name))) {
              shown(p.initializer, report);
            }
          }
        }
      } else if (name === "setAttribute" && first && ts.isStringLiteral(first)
                 && SHOWN_ATTRS.has(first.text) && second) {
        shown(second, report);
      } else if (name in SHOWING_CALLS) {
        const arg = node.arguments[SHOWING_CALLS[name]];
        if (arg) shown(arg, report);
      }
    } else if (ts.isBinaryExpression(node)
               && node.operatorToken.kind === ts.SyntaxKind.EqualsToken
               && ts.isPropertyAccessExpression(node.left)
               && SHOWN_ATTRS.has(node.left.name.text)) {
      shown(node.right, report);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return { keys, prefixes, literals };
}

/**
 * The text of an HTML page a reader sees (text nodes outside script/style, and the shown
 * attributes; not <noscript>), which must each sit on an element naming its key: data-i18n for the text,
 * data-i18n-<attr> for an attribute (i18n.js's translatePage fills them in).
 * @param {string} file
 */
function scanPage(file) {
  const { document } = parseHTML(readFileSync(file, "utf8"));
  /** @type {string[]} */ const keys = [];
  /** @type {string[]} */ const literals = [];
  const name = relative(WEB, file);
  for (const el of document.querySelectorAll("*")) {
    // A page without JavaScript cannot translate itself: <noscript> stays as written.
    if (["SCRIPT", "STYLE", "NOSCRIPT"].includes(el.tagName)) continue;
    const key = el.getAttribute("data-i18n");
    if (key) keys.push(key);
    for (const node of el.childNodes) {
      if (node.nodeType === 3 && hasWords(node.textContent ?? "") && !key) {
        literals.push(`${name}: <${el.tagName.toLowerCase()}> ${JSON.stringify(node.textContent?.trim())}`);
      }
    }
    for (const attr of ["title", "aria-label", "placeholder", "alt", "content"]) {
      const value = el.getAttribute(attr);
      if (attr === "content" && el.getAttribute("name") !== "description") continue;
      const attrKey = el.getAttribute(`data-i18n-${attr}`);
      if (attrKey) keys.push(attrKey);
      if (value && hasWords(value) && !attrKey) {
        literals.push(`${name}: <${el.tagName.toLowerCase()} ${attr}> ${JSON.stringify(value)}`);
      }
    }
  }
  return { keys, literals };
}

const scans = SOURCES.map((file) => ({ file, ...scan(file) }));
const pageScans = PAGES.map(scanPage);

/** @param {Entry} entry @returns {string[]} */
function placeholders(entry) {
  const texts = typeof entry === "string" ? [entry] : Object.values(entry);
  return [...new Set(texts.flatMap((s) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1])))].sort();
}

test("the four languages have a catalog", () => {
  assert.deepEqual(Object.keys(catalogs).sort(), ["de", "en", "es", "fr"]);
});

test("every key the client uses is in the English catalog", () => {
  const used = new Set([...scans.flatMap((s) => s.keys), ...pageScans.flatMap((s) => s.keys)]);
  const missing = [...used].filter((k) => !(k in catalogs.en)).sort();
  assert.deepEqual(missing, [], "keys used in code but missing from en.json");
  const english = Object.keys(catalogs.en);
  const unmatched = scans.flatMap((s) => s.prefixes)
    .filter((p) => !english.some((k) => k.startsWith(p)));
  assert.deepEqual(unmatched, [], "built keys whose prefix matches no key");
});

test("every catalog has English's keys, no more", () => {
  const english = Object.keys(catalogs.en).sort();
  for (const [lang, catalog] of Object.entries(catalogs)) {
    const keys = Object.keys(catalog);
    assert.deepEqual(english.filter((k) => !(k in catalog)), [], `${lang}.json lacks these keys`);
    assert.deepEqual(keys.filter((k) => !(k in catalogs.en)), [], `${lang}.json has extra keys`);
  }
});

test("catalogs keep their keys sorted (a merge then conflicts less)", () => {
  for (const [lang, catalog] of Object.entries(catalogs)) {
    const keys = Object.keys(catalog);
    assert.deepEqual(keys, [...keys].sort(), `${lang}.json is not sorted`);
  }
});

test("a translation has English's placeholders and plural shape", () => {
  const bad = [];
  for (const [key, entry] of Object.entries(catalogs.en)) {
    for (const [lang, catalog] of Object.entries(catalogs)) {
      const other = catalog[key];
      if (other === undefined) continue;
      if ((typeof entry === "string") !== (typeof other === "string")) {
        bad.push(`${lang} ${key}: plural in one language only`);
      } else if (typeof other !== "string" && !("other" in other)) {
        bad.push(`${lang} ${key}: a plural without "other"`);
      } else if (placeholders(entry).join() !== placeholders(other).join()) {
        bad.push(`${lang} ${key}: {${placeholders(other)}} for English's {${placeholders(entry)}}`);
      } else if (typeof other !== "string") {
        const forms = new Intl.PluralRules(lang).resolvedOptions().pluralCategories;
        const lacking = forms.filter((f) => f !== "other" && !(f in other) && f !== "many");
        if (lacking.length) bad.push(`${lang} ${key}: no ${lacking} form`);
      }
    }
  }
  assert.deepEqual(bad, []);
});

test("no user-facing literal bypasses the catalogs in the client's modules", () => {
  const found = scans.filter((s) => !CONVERTED_ELSEWHERE.has(relative(STATIC, s.file)))
    .flatMap((s) => s.literals);
  assert.deepEqual(found, [], "write these through t(key) (docs/i18n.md)");
});

test("the modules converted on another branch still have literals (else unlist them)", () => {
  const done = scans.filter((s) => CONVERTED_ELSEWHERE.has(relative(STATIC, s.file))
    && !s.literals.length).map((s) => relative(STATIC, s.file));
  assert.deepEqual(done, [], "remove these from CONVERTED_ELSEWHERE");
});

test("no text in the HTML pages bypasses the catalogs", () => {
  assert.deepEqual(pageScans.flatMap((s) => s.literals), [], "give these a data-i18n key");
});

test("the detector sees literals in h(), attributes and textContent, not keys or symbols", () => {
  const probe = `h("p", {title: "Hello there"}, ok ? "Yes" : t("x"), \`\${n} pts\`);
    el.textContent = "Waiting"; el.setAttribute("aria-label", "Close"); h("b", null, "·", "Cambio");
    toast(t("y")); h("i", {class: "big words"}, t(\`power.\${p}\`));`;
  const got = scan(join(STATIC, "probe.js"), probe);
  assert.deepEqual(got.literals.map((l) => l.replace(/^.*: /, "")),
    ['"Yes"', '"… pts"', '"Hello there"', '"Waiting"', '"Close"']);
  assert.deepEqual(got.keys, ["x", "y"]);
  assert.deepEqual(got.prefixes, ["power."]);
});
