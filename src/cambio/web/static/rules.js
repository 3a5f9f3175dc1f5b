// The card rules in words, from GET /api/rules (names and descriptions come from the server's
// cambio.cards.rules_text, checked against the engine's rules by a test): house rules in the
// lobby and at the table, what a power card does, the rules page.
import { api } from "./common.js";
import { t } from "./i18n.js";

/** @typedef {{ fields?: RuleField[], presets?: Record<string, Record<string, unknown>> }} RulesCatalogue */
/** @typedef {{ name: string, label?: string, help?: string, type?: string, choices?: unknown[], choice_labels?: Record<string, string> }} RuleField */
/** @typedef {import("./messages.js").TableRules} TableRules */

/** @type {Promise<RulesCatalogue> | null} */
let catalogue = null;

/** GET /api/rules once per page. */
export function loadRules() {
  if (!catalogue) catalogue = api("GET", "/api/rules").catch((err) => { catalogue = null; throw err; });
  return catalogue;
}

/** A field's entry ({name, label, help, type, choices, choice_labels}).
 * @param {any} cat @param {string} name @returns {RuleField | undefined} */
export function fieldOf(cat, name) {
  return cat && cat.fields ? cat.fields.find((/** @type {RuleField} */ f) => f.name === name) : undefined;
}

/** @param {any} cat @param {string} name */
export function ruleLabel(cat, name) {
  const f = fieldOf(cat, name);
  return f && f.label ? f.label : name.replace(/_/g, " ");
}

/** A field's value in words: "yes", "none", "Peek at one of your own cards", "11".
 * @param {any} cat @param {string} name @param {unknown} value */
export function ruleValue(cat, name, value) {
  const f = fieldOf(cat, name);
  if (value === null || value === undefined) return t("rules.none");
  if (typeof value === "boolean") return value ? t("rules.yes") : t("rules.no");
  if (f && f.choice_labels && f.choice_labels[String(value)]) return f.choice_labels[String(value)];
  return String(value);
}

/** Every field's value for a table's rules ({preset, overrides}).
 * @param {any} cat @param {TableRules | null | undefined} rules @returns {Record<string, any>} */
export function effectiveRules(cat, rules) {
  const preset = (rules && rules.preset) || "rulebook";
  const base = cat && cat.presets ? cat.presets[preset] || {} : {};
  return { ...base, ...((rules && rules.overrides) || {}) };
}

/** "House rules: Take from the pile: no · Wrong snap penalty: 2" items, one per override.
 * @param {any} cat @param {TableRules | null | undefined} rules */
export function houseRuleLines(cat, rules) {
  const overrides = (rules && rules.overrides) || {};
  return Object.entries(overrides).map(([name, value]) => ({
    name, label: ruleLabel(cat, name), value: ruleValue(cat, name, value),
    help: (fieldOf(cat, name) || {}).help || "",
  }));
}

/** The rules field that gives a card its power (null for cards without one).
 * @param {string} code */
export function powerField(code) {
  const rank = code[0];
  if (rank === "7" || rank === "8") return "power_seven_eight";
  if (rank === "9" || rank === "T") return "power_nine_ten";
  if (rank === "J" || rank === "Q") return "power_jack_queen";
  if (rank === "K") return code[1] === "D" || code[1] === "H" ? "power_red_king" : "power_black_king";
  return null;
}

/** What discarding `code` lets one do under `rules` ({preset, overrides}), in words, or null.
 * @param {any} cat @param {TableRules | null | undefined} rules @param {unknown} code */
export function powerText(cat, rules, code) {
  const field = typeof code === "string" ? powerField(code) : null;
  if (!field || !cat) return null;
  const power = effectiveRules(cat, rules)[field];
  if (!power || power === "none") return null;
  return ruleValue(cat, field, power);
}
