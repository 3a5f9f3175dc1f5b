// @ts-check
// The interface's words in the reader's language. Every user-facing string goes through t()
// with a key from the catalogs in locales/ (one JSON file per language, English the
// reference): a string written straight into the DOM could never be translated. Plurals are
// chosen by Intl.PluralRules, so each language keeps its own forms ("one"/"other" in English,
// "one"/"many"/"other" in French and Spanish); numbers are formatted for the language.
import en from "./locales/en.json" with { type: "json" };

/** @typedef {Partial<Record<Intl.LDMLPluralRule, string>> & { other: string }} PluralEntry */
/** @typedef {string | PluralEntry} Entry */
/** @typedef {Record<string, Entry>} Catalog */
/** @typedef {Record<string, string | number>} Params */

/** The languages with a complete catalog, English first (the fallback). */
export const LANGUAGES = /** @type {const} */ (["en", "de", "es", "fr"]);
/** @typedef {typeof LANGUAGES[number]} Language */

const STORE_KEY = "cambio.lang";

/** @type {Catalog} */
const english = en;
/** @type {Language} */
let current = "en";
/** @type {Catalog} */
let catalog = english;

/**
 * The language to show: the one the player chose, else the first of the browser's
 * preferences that has a catalog, else English.
 * @returns {Language}
 */
export function preferredLanguage() {
  /** @type {string[]} */
  const wanted = [];
  try {
    const stored = globalThis.localStorage?.getItem(STORE_KEY);
    if (stored) wanted.push(stored);
  } catch { /* storage can be blocked; the browser's preference still applies */ }
  const nav = globalThis.navigator;
  if (nav) wanted.push(...(nav.languages ?? []), nav.language ?? "");
  for (const tag of wanted) {
    const base = /** @type {Language} */ (tag.toLowerCase().split("-")[0]);
    if (LANGUAGES.includes(base)) return base;
  }
  return "en";
}

/**
 * Load a language's catalog and make it current (English when it cannot be loaded).
 * @param {Language} code
 * @returns {Promise<Language>}
 */
export async function useLanguage(code) {
  if (code === "en" || !LANGUAGES.includes(code)) {
    current = "en";
    catalog = english;
  } else {
    try {
      const module = await import(`./locales/${code}.json`, { with: { type: "json" } });
      catalog = /** @type {Catalog} */ (module.default);
      current = code;
    } catch {
      current = "en";
      catalog = english;
    }
  }
  if (globalThis.document) {
    document.documentElement.lang = current;
    translatePage(document);
  }
  return current;
}

/**
 * t() for a line with nodes in it (a card drawn in its colour): the text split at the
 * placeholders whose params are nodes, those put in place; strings and numbers as t() puts
 * them. A translation may so move the card anywhere in its sentence.
 * @param {string} key @param {Record<string, string | number | Node>} params
 * @returns {(string | Node)[]}
 */
export function tNodes(key, params) {
  /** @type {Params} */
  const plain = {};
  for (const [name, value] of Object.entries(params)) {
    if (typeof value === "string" || typeof value === "number") plain[name] = value;
  }
  return t(key, plain).split(/(\{\w+\})/).filter((part) => part !== "")
    .map((part) => {
      const value = /^\{\w+\}$/.test(part) ? params[part.slice(1, -1)] : undefined;
      return value !== undefined && typeof value === "object" ? value : part;
    });
}

/**
 * Remember the player's choice of language (over the browser's preference) and use it.
 * @param {Language} code
 */
export async function chooseLanguage(code) {
  try { globalThis.localStorage?.setItem(STORE_KEY, code); } catch { /* the choice lasts this page */ }
  return useLanguage(code);
}

/**
 * The HTML pages' own words: an element with data-i18n="key" gets the key's text, and
 * data-i18n-<attribute>="key" that attribute's (the catalog check requires one or the other
 * on every text of a page).
 * @param {ParentNode} root
 */
export function translatePage(root) {
  for (const el of root.querySelectorAll("[data-i18n]")) {
    el.textContent = t(/** @type {string} */ (el.getAttribute("data-i18n")));
  }
  for (const attr of ["title", "aria-label", "placeholder", "alt"]) {
    for (const el of root.querySelectorAll(`[data-i18n-${attr}]`)) {
      el.setAttribute(attr, t(/** @type {string} */ (el.getAttribute(`data-i18n-${attr}`))));
    }
  }
}

/**
 * A date (and time) in the reader's language: "5 Dec 2026, 14:03" / "5. Dez. 2026, 14:03".
 * @param {Date | number | string} when @param {Intl.DateTimeFormatOptions} [options]
 */
export function formatDate(when, options = { dateStyle: "medium", timeStyle: "short" }) {
  return new Intl.DateTimeFormat(current, options).format(new Date(when));
}

/** A number in the reader's language ("1,234.5" / "1.234,5"). @param {number} value
 * @param {Intl.NumberFormatOptions} [options] */
export function formatNumber(value, options) {
  return new Intl.NumberFormat(current, options).format(value);
}

/** Whether the catalogs have `key` (one named by the server may be newer than the page).
 * @param {string} key */
export function hasKey(key) {
  return Object.hasOwn(english, key);
}

/** @returns {Language} the language t() speaks now */
export function language() {
  return current;
}

/**
 * The text of a key in the current language, with {name} placeholders filled from params.
 * A plural entry is chosen by params.count. A key missing from the current catalog falls
 * back to English, and one missing from English shows the key itself (the catalog check in
 * `make test` fails on both).
 * @param {string} key
 * @param {Params} [params]
 * @returns {string}
 */
export function t(key, params) {
  const entry = catalog[key] ?? english[key];
  if (entry === undefined) return key;
  let text;
  if (typeof entry === "string") {
    text = entry;
  } else {
    const count = Number(params?.count ?? 0);
    text = entry[new Intl.PluralRules(current).select(count)] ?? entry.other;
  }
  if (!params) return text;
  return text.replace(/\{(\w+)\}/g, (whole, name) => {
    const value = params[name];
    if (value === undefined) return whole;
    return typeof value === "number" ? new Intl.NumberFormat(current).format(value) : value;
  });
}

await useLanguage(preferredLanguage());
