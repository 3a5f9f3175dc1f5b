// The rules page (/rules?table=<id> or /rules?preset=<name>): the card rules in force at a
// table, or a preset's, every rule with its value in words. It is built from the engine's own
// rules (GET /api/rules: every field, every preset's values, their words) and the table's
// {preset, overrides}, so it shows what the server plays, never a copy that can drift.
import { api, byId, h, tableTitle } from "./common.js";
import { effectiveRules, loadRules, ruleValue } from "./rules.js";

/** @typedef {import("./rules.js").RulesCatalogue} RulesCatalogue */

const app = byId("app");
const titleEl = byId("title");
const params = new URLSearchParams(location.search);

const TURN = [
  "Everyone gets four cards face down in a 2×2 grid and sees their bottom two once. Lowest total wins.",
  "On your turn draw a card (or, where allowed, take the top of the pile). Swap it into your grid, face down, "
    + "or discard it. A discarded power card lets you act: the powers are below.",
  "Any time the pile's top card matches one of the table's cards, anyone may snap that card onto the pile. "
    + "A wrong snap costs penalty cards; after snapping another player's card, you give them one of yours.",
  "Call Cambio instead of a turn when you think you are lowest: everyone else gets one more turn, then all cards turn up.",
];

/** @type {[string, string[]][]} */
const GROUPS = [
  ["Points", ["value_ace", "value_jack", "value_queen", "value_black_king", "value_red_king",
    "value_joker"]],
  ["Powers", ["power_seven_eight", "power_nine_ten", "power_jack_queen", "power_black_king",
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
      h("td", null, ruleValue(cat, name, values[name]), changed ? h("span.tag", null, "house rule") : null));
  })));
}

// The dice board game in words (docs/board-rules.md has every ruling).
const BOARD = [
  ["The board", "25 dice on a 5×5 board. Each player has a symbol; the dice showing it are theirs, the others are neutral. "
    + "Columns are lettered A–E from the left, rows numbered 1–5 from the bottom: a1 is the bottom-left cell."],
  ["Setup", "Quick setup deals a fair start at once. Full setup: the dice are rolled, the four most common symbols kept, "
    + "each player gets one of them; then each player adjusts the next player's dice — first turning dice neutral "
    + "until that player has no more than two in any row, column or long diagonal, then giving dice until they have "
    + "their count (with 2 players: 4 for the first player, 5 for the second; never on a corner)."],
  ["A move", "Push one of your dice in from an edge: the whole row or column slides one cell and the die at the far end "
    + "leaves the board. It may be neutral or yours, never another player's. The arrows around the board are the pushes; "
    + "a4> means row 4 from the left, c5v column C from the top. A player with no legal push passes."],
  ["Winning", "Make a line of your symbol: 5 in a row, column or long diagonal with 2 players; 4 in a row with 3. "
    + "A push that completes another player's line makes them win (both, if it completes yours too: a tie). "
    + "The same position three times, or 200 moves, is a draw."],
];

function boardRules() {
  titleEl.textContent = "Rules · dice board game";
  app.append(h("section.panel.rules", { id: "board-rules", dataset: { game: "board" } },
    h("h2", null, "The dice board game"),
    BOARD.map(([title, text]) => [h("h3", null, title), h("p", null, text)]),
    // A reader here has no repository at hand: no file path to follow.
    h("p.muted", null, "The table knows every ruling: it offers only the moves the rules allow. ",
      h("a", { href: "/rules" }, "The card game's rules"))));
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
  titleEl.textContent = `Rules · ${rules.preset}${n ? ` + ${n} house rule${n > 1 ? "s" : ""}` : ""}`;
  const grouped = new Set(GROUPS.flatMap(([, names]) => names));
  const rest = (cat.fields || []).map((f) => f.name).filter((name) => !grouped.has(name));
  app.append(h("section.panel.rules", { dataset: { preset: rules.preset } },
    h("h2", null, heading ? `The rules at ${heading}` : `The ${rules.preset} rules`),
    h("p.muted", null, `Preset: ${rules.preset}`, n ? `, with ${n} house rule${n > 1 ? "s" : ""} (marked)` : "",
      ". Other presets: ", Object.keys(presets).filter((p) => p !== rules.preset)
        .flatMap((p, i) => [i ? ", " : "", h("a", { href: `/rules?preset=${p}` }, p)])),
    h("h3", null, "How a round goes"),
    h("ol", null, TURN.map((t) => h("li", null, t))),
    GROUPS.map(([title, names]) => [h("h3", null, title), rulesTable(cat, values, overrides, names)]),
    h("h3", null, "Everything else"),
    rulesTable(cat, values, overrides, rest),
    h("p.muted", null, "The table knows every ruling: it offers only the moves these rules allow.")));
}

main().catch((/** @type {Error} */ err) => {
  app.append(h("section.panel", null, h("h2", null, "Cannot show the rules"),
    h("p.muted", null, err.message || String(err)), h("a.button.primary", { href: "/" }, "Back to the lobby")));
});
