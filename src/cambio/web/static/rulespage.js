// The rules page (/rules?table=<id> or /rules?preset=<name>): the card rules in force at a
// table, or a preset's, every rule with its value in words. It is built from the engine's own
// rules (GET /api/rules: every field, every preset's values, their words) and the table's
// {preset, overrides}, so it shows what the server plays, never a copy that can drift.
import { api, errorText, byId, h, tableTitle } from "./common.js";
import { effectiveRules, loadRules, ruleValue } from "./rules.js";
import { t } from "./i18n.js";

/** @typedef {import("./rules.js").RulesCatalogue} RulesCatalogue */

const app = byId("app");
const titleEl = byId("title");
const params = new URLSearchParams(location.search);

const TURN = [t("rulesPage.turn1"), t("rulesPage.turn2"), t("rulesPage.turn3"), t("rulesPage.turn4")];

/** @type {[string, string[]][]} */
const GROUPS = [
  [t("rulesPage.points"), ["value_ace", "value_jack", "value_queen", "value_black_king", "value_red_king",
    "value_joker"]],
  [t("rulesPage.powers"), ["power_seven_eight", "power_nine_ten", "power_jack_queen", "power_black_king",
    "power_red_king", "power_trigger", "powers_optional"]],
];

/**
 * @param {RulesCatalogue} cat @param {Record<string, unknown>} values
 * @param {Record<string, unknown>} overrides @param {string[]} names
 */
function rulesTable(cat, values, overrides, names) {
  return h("table.rules-table", null, h("tbody", null, names.map((name) => {
    const f = (cat.fields || []).find((x) => x.name === name) || { name };
    const changed = name in overrides;
    return h("tr", { class: changed ? "changed" : "", dataset: { rule: name } },
      h("th", { scope: "row" }, f.label, h("small.rule-help", null, f.help)),
      h("td", null, ruleValue(cat, name, values[name]), changed ? h("span.tag", null, t("rulesPage.houseRule")) : null));
  })));
}

// The dice board game in words (docs/board-rules.md has every ruling).
const BOARD = ["board", "setup", "move", "winning"].map((k) => [t(`diceRules.${k}`), t(`diceRules.${k}.text`)]);

function boardRules() {
  titleEl.textContent = t("diceRules.title");
  app.append(h("section.panel.rules", { id: "board-rules", dataset: { game: "board" } },
    h("h2", null, t("diceRules.heading")),
    BOARD.map(([title, text]) => [h("h3", null, title), h("p", null, text)]),
    // A reader here has no repository at hand: no file path to follow.
    h("p.muted", null, t("diceRules.knows"), " ",
      h("a", { href: "/rules" }, t("diceRules.cardRules")))));
}

async function main() {
  if (params.get("game") === "board") { boardRules(); return; }
  const cat = await loadRules();
  /** @type {{ preset: string, overrides?: Record<string, unknown> }} */
  let rules = { preset: params.get("preset") || "house", overrides: {} };
  let heading = null;
  const table = params.get("table");
  if (table) {
    const summary = await api("GET", `/api/tables/${encodeURIComponent(table)}`);
    if (summary.rules) rules = summary.rules;
    heading = tableTitle(summary);
  }
  const presets = cat.presets || {};
  if (!presets[rules.preset]) rules = { preset: "house", overrides: {} };
  const values = effectiveRules(cat, rules);
  const overrides = rules.overrides || {};
  const n = Object.keys(overrides).length;
  titleEl.textContent = `${t("lobby.rules")} · ${t(`preset.${rules.preset}`)}${n ? ` + ${t("label.houseRules", { count: n })}` : ""}`;
  const grouped = new Set(GROUPS.flatMap(([, names]) => names));
  const rest = (cat.fields || []).map((f) => f.name).filter((name) => !grouped.has(name));
  app.append(h("section.panel.rules", { dataset: { preset: rules.preset } },
    h("h2", null, heading ? t("rulesPage.at", { table: heading }) : t("rulesPage.preset", { preset: t(`preset.${rules.preset}`) })),
    h("p.muted", null, t("rulesPage.presetIs", { preset: t(`preset.${rules.preset}`) }), n ? t("rulesPage.withHouse", { count: n }) : "",
      ". ", t("rulesPage.others"), " ", Object.keys(presets).filter((p) => p !== rules.preset)
        .flatMap((p, i) => [i ? ", " : "", h("a", { href: `/rules?preset=${p}` }, t(`preset.${p}`))])),
    h("h3", null, t("rulesPage.round")),
    h("ol", null, TURN.map((line) => h("li", null, line))),
    GROUPS.map(([title, names]) => [h("h3", null, title), rulesTable(cat, values, overrides, names)]),
    h("h3", null, t("rulesPage.else")),
    rulesTable(cat, values, overrides, rest),
    h("p.muted", null, t("rulesPage.knows"))));
}

main().catch((/** @type {Error} */ err) => {
  app.append(h("section.panel", null, h("h2", null, t("rulesPage.cannot")),
    h("p.muted", null, errorText(err)), h("a.button.primary", { href: "/" }, t("common.backToLobby"))));
});
