// The lobby's house rules form: every rule of the server's catalogue (GET /api/rules) with
// the chosen preset's value, in words; a change is kept as an override of the preset, and a
// new preset keeps the player's changes but those it already has.
import { h } from "./common.js";
import { t } from "./i18n.js";

/** @typedef {import("./common.js").InputChange} InputChange */
/** @typedef {import("./common.js").SelectChange} SelectChange */

/**
 * The part of the lobby's state the form reads and writes.
 * @typedef {{ rules: any, overrides: Record<string, unknown>, preset: string }} FormState
 */

/** Each preset in a line (the preset picker's words). */
export const PRESET_NOTES = /** @type {Record<string, string>} */ ({
  rulebook: t("preset.rulebook.note"),
  house: t("preset.house.note"),
  wikipedia: t("preset.wikipedia.note"),
  cabo: t("preset.cabo.note"),
  evan: t("preset.evan.note"),
  cambia: t("preset.cambia.note"),
});
export const PRESET_NAMES = Object.keys(PRESET_NOTES);

/** A field name in words. @param {string} name */
function labelOf(name) {
  return name.replace(/_/g, " ").replace(/^value /, "value of ");
}

/** @param {any} field */
function fieldKind(field) {
  if (field.choices && field.choices.length) return "choice";
  const t = String(field.type || "").toLowerCase();
  if (t.includes("bool")) return "bool";
  if (t.includes("opt") || t.includes("none") || t.includes("null")) return "optint";
  return "int";
}

/** A preset's value of a field. @param {FormState} state @param {string} preset @param {string} name */
export function presetValue(state, preset, name) {
  const p = state.rules && state.rules.presets ? state.rules.presets[preset] : null;
  return p ? p[name] : undefined;
}

/** Every rule of the catalogue with the preset's value, the changed ones marked.
 * @param {FormState} state @param {string} preset */
export function houseRulesForm(state, preset) {
  const box = h("div.house-rules");
  if (!state.rules || !state.rules.fields) {
    box.append(h("p.muted", null, t("house.loading")));
    return box;
  }
  for (const field of state.rules.fields) {
    const name = field.name;
    if (name === "min_players" || name === "max_players") continue;
    const kind = fieldKind(field);
    const base = presetValue(state, preset, name);
    const current = name in state.overrides ? state.overrides[name] : base;
    const id = `rule-${name}`;
    /** @param {unknown} value */
    const set = (value) => {
      if (JSON.stringify(value) === JSON.stringify(base)) delete state.overrides[name];
      else state.overrides[name] = value;
      row.classList.toggle("changed", name in state.overrides);
      updateRuleCount(state);
    };
    /** @type {HTMLElement} */
    let control;
    if (kind === "bool") {
      control = h("input", {
        id, type: "checkbox", checked: !!current, onchange: (/** @type {InputChange} */ e) => set(e.target.checked),
      });
    } else if (kind === "choice") {
      control = h("select", { id, onchange: (/** @type {SelectChange} */ e) => set(e.target.value) },
        field.choices.map((/** @type {string} */ c) => h("option", { value: c, selected: c === current },
          (field.choice_labels && field.choice_labels[c]) || labelOf(c))));
    } else {
      control = h("input", {
        id, type: "number", inputmode: "numeric", step: 1,
        value: current === null || current === undefined ? "" : current,
        placeholder: kind === "optint" ? t("rules.none") : "",
        onchange: (/** @type {InputChange} */ e) => {
          const raw = e.target.value.trim();
          if (raw === "" && kind === "optint") set(null);
          else if (raw !== "" && Number.isInteger(Number(raw))) set(Number(raw));
        },
      });
    }
    const row = h("div.rule-row", { class: name in state.overrides ? "changed" : "", dataset: { rule: name } },
      h("label", { for: id }, field.label || labelOf(name),
        field.help ? h("small.rule-help", null, field.help) : null), control);
    box.append(row);
  }
  return box;
}

// A new preset is a new base: the house rules the player chose stay chosen, and only those
// the new preset already has drop out of the list of changes.
/** @param {FormState} state @param {string} preset */
export function choosePreset(state, preset) {
  state.preset = preset;
  for (const [name, value] of Object.entries(state.overrides)) {
    if (JSON.stringify(value) === JSON.stringify(presetValue(state, preset, name))) delete state.overrides[name];
  }
}

/** The count of changed rules beside the form's title. @param {FormState} state */
export function updateRuleCount(state) {
  const n = Object.keys(state.overrides).length;
  const el = document.getElementById("rule-count");
  if (el) el.textContent = n ? t("house.changed", { count: n }) : t("house.asPrinted");
}
