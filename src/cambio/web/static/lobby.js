// The lobby: your name, a form to create a table (cards or dice board), the open tables.
import {
  api, byId, clear, errorText, myTables, noticeLine, getName, getToken, h, inviteUrl, setName, setToken, toast,
} from "./common.js";
import { tableOptionsBody, tableOptionsFields } from "./tableopts.js";
import { startTutorial } from "./tutorial.js";
import {
  PRESET_NAMES, PRESET_NOTES, choosePreset, houseRulesForm, presetValue, updateRuleCount,
} from "./houserules.js";
import { accountPanel, ensurePlayer, playerName, playNowPanel } from "./players.js";
import { refresh, tablesPanel } from "./lobby_tables.js";
import { dailyPanel } from "./daily_panel.js";
import { followYourGames, yourGamesPanel } from "./yourgames.js";
import { followFriends, friendsPanel, invitesBox } from "./friends.js";
import { t } from "./i18n.js";

/** @typedef {import("./common.js").InputChange} InputChange */
/** @typedef {import("./common.js").SelectChange} SelectChange */
/**
 * A game the server holds (GET /api/games): its seats (fewest, most) and its options with
 * their choices, the default first.
 * @typedef {{ name: string, seats: [number, number], options: Record<string, string[]> }} ServedGame
 */
/** @typedef {string | number} Choice  a segmented control's value */

const app = byId("app");
/**
 * The create form's choices (kept across redraws and game switches) and what it is drawn from.
 * @type {import("./houserules.js").FormState & { game: string, players: number, rounds: number,
 *   houseOpen: boolean, games: ServedGame[], renderForm: (() => void) | null, tableName: string,
 *   private: boolean }}
 */
const state = {
  game: "cards",
  preset: "house",
  players: 2,          // kept across preset and game switches: the form redraws itself
  rounds: 1,
  houseOpen: false,
  rules: null,         // GET /api/rules
  games: [],           // GET /api/games: every game this server holds (its seats and options)
  renderForm: null,    // redraws the create form (once the games are known)
  overrides: {},       // field -> value, only fields the player changed
  tableName: "",
  private: false,
};

function nameField() {
  const input = h("input", {
    id: "name", name: "name", type: "text", maxlength: 40, autocomplete: "nickname",
    placeholder: t("lobby.yourName"), value: getName(), required: true,
    oninput: (/** @type {InputChange} */ e) => setName(e.target.value.trim()),
  });
  return h("section.panel.name-panel", null,
    h("label.field", { for: "name" }, h("span", null, t("lobby.yourName")), input));
}

/**
 * Radio buttons as one control.
 * @param {string} name @param {[Choice, string][]} options @param {Choice} value
 * @param {(value: Choice) => void} onchange
 */
function segmented(name, options, value, onchange) {
  return h("div.segmented", { role: "radiogroup", "aria-label": name },
    options.map(([val, text]) => {
      const id = `${name}-${val}`;
      return h("label.seg", { for: id },
        h("input", {
          type: "radio", id, name, value: val, checked: String(val) === String(value),
          onchange: () => onchange(val),
        }),
        h("span", null, text));
    }));
}

function createForm() {
  const form = h("form.panel.create", {
    onsubmit: (/** @type {SubmitEvent} */ e) => { e.preventDefault(); create(form); },
  });
  const render = () => {
    clear(form);
    form.append(h("h2", null, t("lobby.newTable")));
    // The two games of their own, then any other the server holds (cambio serve --game),
    // with a form drawn from its seats and options.
    const others = state.games.filter((g) => g.name !== "cards" && g.name !== "board");
    form.append(segmented("game", [["cards", t("lobby.cardGame")], ["board", t("lobby.diceGame")],
      ...others.map((g) => /** @type {[Choice, string]} */ ([g.name, g.name]))], state.game, (g) => { state.game = String(g); render(); }));
    const other = others.find((g) => g.name === state.game);
    if (other) {
      form.append(genericFields(other, form));
    } else if (state.game === "cards") {
      const preset = state.preset;
      form.append(
        h("div.row",
          null,
          h("label.field", { for: "players" }, h("span", null, t("lobby.players")),
            h("select", {
              id: "players", name: "players",
              onchange: (/** @type {SelectChange} */ e) => { state.players = Number(e.target.value); },
            }, [2, 3, 4, 5, 6, 7, 8].map(
              (n) => h("option", { value: n, selected: n === state.players }, n)))),
          h("label.field", { for: "rounds" }, h("span", null, t("lobby.rounds")),
            h("select", {
              id: "rounds", name: "rounds",
              onchange: (/** @type {SelectChange} */ e) => { state.rounds = Number(e.target.value); },
            }, Array.from({ length: 20 }, (_, i) => i + 1).map(
              (n) => h("option", { value: n, selected: n === state.rounds }, n))),
            // Rules with a match target (cabo: 100) play to it, whatever the rounds say.
            (() => {
              const target = "match_target" in state.overrides ? state.overrides.match_target
                : presetValue(state, preset, "match_target");
              return target ? h("small.muted", { id: "target-note" }, t("lobby.playsTo", { count: target })) : null;
            })())),
        h("fieldset.presets", null, h("legend", null, t("lobby.rules")),
          PRESET_NAMES.map((p) => h("label.preset", { for: `preset-${p}` },
            h("input", {
              type: "radio", name: "preset", id: `preset-${p}`, value: p, checked: p === preset,
              onchange: () => { choosePreset(state, p); render(); },
            }),
            h("span.preset-name", null, t(`preset.${p}`)),
            h("span.preset-note", null, PRESET_NOTES[p]))),
          h("a.rules-link", { href: `/rules?preset=${preset}`, target: "_blank", rel: "noopener", id: "rules-link" },
            t("lobby.readRules", { preset: t(`preset.${preset}`) }))),
        h("details.house", { open: state.houseOpen, ontoggle: (/** @type {Event & { target: HTMLDetailsElement }} */ e) => { state.houseOpen = e.target.open; } },
          h("summary", null, t("lobby.houseRules"), " ", h("span#rule-count.muted", { id: "rule-count" })),
          houseRulesForm(state, preset)),
      );
      updateRuleCount(state);
    } else {
      form.append(
        h("div.row", null,
          h("div.field", null, h("span", null, t("lobby.players")),
            segmented("bplayers", [[2, t("common.players", { count: 2 })], [3, t("common.players", { count: 3 })]], form.dataset.bplayers || 2,
              (v) => { form.dataset.bplayers = String(v); })),
          h("div.field", null, h("span", null, t("lobby.setup")),
            segmented("setup", [["quick", t("lobby.setupQuick")], ["full", t("lobby.setupFull")]],
              form.dataset.setup || "quick", (v) => { form.dataset.setup = String(v); }))),
        h("p.muted", null, t("lobby.diceSummary")),
      );
    }
    form.append(listingFields());
    form.append(tableOptionsFields());
    form.append(h("button.primary.big", { type: "submit", id: "create" }, t("lobby.createTable")));
    updateRuleCount(state);
  };
  state.renderForm = render;
  render();
  return form;
}

/** A served game's players and options (GET /api/games), chosen as the lobby's own are.
 * @param {ServedGame} game @param {HTMLElement} form */
function genericFields(game, form) {
  const [low, high] = game.seats;
  const players = Array.from({ length: high - low + 1 }, (_, i) => low + i);
  return h("div.row", null,
    h("div.field", null, h("span", null, t("lobby.players")),
      segmented("gplayers", players.map((n) => /** @type {[Choice, string]} */ ([n, t("common.players", { count: n })])), form.dataset.gplayers || low,
        (v) => { form.dataset.gplayers = String(v); })),
    Object.entries(game.options).map(([name, choices]) => h("div.field", null, h("span", null, name),
      segmented(`option-${name}`, choices.map((c) => /** @type {[Choice, string]} */ ([c, c])), form.dataset[`option_${name}`] || choices[0],
        (v) => { form.dataset[`option_${name}`] = String(v); }))));
}

/** The create body of a served game's table (its own options, their defaults first).
 * @param {ServedGame} game @param {HTMLElement} form */
function genericBody(game, form) {
  /** @type {Record<string, unknown>} */
  const body = { game: game.name, players: Number(form.dataset.gplayers || game.seats[0]) };
  for (const [name, choices] of Object.entries(game.options)) {
    body[name] = form.dataset[`option_${name}`] || choices[0];
  }
  return body;
}

// The table's name and privacy (kept in `state`: the form redraws itself).
function listingFields() {
  return h("div.row.listing", null,
    h("label.field", { for: "table-name" }, h("span", null, t("lobby.tableName")),
      h("input", {
        id: "table-name", type: "text", maxlength: 40, value: state.tableName,
        placeholder: getName() ? t("lobby.someonesTable", { name: getName() }) : t("lobby.yourTable"),
        oninput: (/** @type {InputChange} */ e) => { state.tableName = e.target.value; },
      })),
    h("label.check", { for: "private" },
      h("input", {
        id: "private", type: "checkbox", checked: state.private,
        onchange: (/** @type {InputChange} */ e) => { state.private = e.target.checked; },
      }),
      h("span", null, t("lobby.private"), h("small.rule-help", null, t("lobby.privateHelp")))));
}

async function quickPlay() {
  const name = playerName();
  if (!name) return;
  const button = /** @type {HTMLButtonElement} */ (byId("quick-play"));
  button.disabled = true;
  try {
    // The seats this browser holds: the server sends us back to one of them rather than
    // seating us a second time at a table we already sit at.
    /** @type {Record<string, string | null>} */
    const held = {};
    for (const id of myTables()) held[id] = getToken(id);
    const res = await api("POST", "/api/quickplay", { name, held });
    // Never overwrite a seat this browser holds with another seat of the same table.
    if (!getToken(res.table)) setToken(res.table, res.token);
    location.href = `/t/${encodeURIComponent(res.table)}`;
  } catch (err) {
    toast(errorText(err), "error");
    button.disabled = false;
  }
}

/** A guided first game: a private table against a bot, dealt the same
 * for everyone by the server (tutorial.js); replayable from here any time.
 * @param {string} game @param {string} id  the button pressed */
async function tutorial(game, id) {
  const name = playerName();
  if (!name) return;
  const button = /** @type {HTMLButtonElement} */ (byId(id));
  button.disabled = true;
  try {
    location.href = `/t/${encodeURIComponent(await startTutorial(game, name))}`;
  } catch (err) {
    toast(errorText(err), "error");
    button.disabled = false;
  }
}

/** What Cambio is, first on a phone's screen, with the way to learn it (the panels under it
 * are taller than a phone's screen). */
function introPanel() {
  return h("section.panel.intro", { id: "intro" },
    h("p", null, t("lobby.intro")),
    h("button.ghost", { type: "button", id: "learn-intro", onclick: () => tutorial("cards", "learn-intro") },
      t("lobby.learn")));
}

function quickPanel() {
  // Not yellow like Play now beside it: the two do different things.
  return h("section.panel.quick", null,
    h("button.big", { type: "button", id: "quick-play", onclick: quickPlay }, t("lobby.quickPlay")),
    h("p.muted", null, t("lobby.quickPlayHelp")),
    h("button.big.ghost", { type: "button", id: "tutorial", onclick: () => tutorial("cards", "tutorial") }, t("lobby.learn")),
    h("p.muted", null, t("lobby.learnHelp")),
    h("button.big.ghost", { type: "button", id: "tutorial-dice", onclick: () => tutorial("board", "tutorial-dice") }, t("lobby.learnDice")),
    h("p.muted", null, t("lobby.learnDiceHelp")));
}

/** @param {HTMLElement} form */
async function create(form) {
  const name = playerName();
  if (!name) return;
  /** @type {Record<string, unknown>} */
  let body;
  const other = state.games.find((g) => g.name === state.game && g.name !== "cards" && g.name !== "board");
  if (other) {
    body = { ...genericBody(other, form), name, table_name: state.tableName.trim(), private: state.private };
  } else if (state.game === "cards") {
    body = {
      game: "cards",
      players: Number(/** @type {HTMLSelectElement} */ (byId("players")).value),
      rules: { preset: state.preset, overrides: { ...state.overrides } },
      rounds: Number(/** @type {HTMLSelectElement} */ (byId("rounds")).value),
      name,
      table_name: state.tableName.trim(),
      private: state.private,
    };
  } else {
    body = {
      game: "board",
      players: Number(form.dataset.bplayers || 2),
      setup: form.dataset.setup || "quick",
      name,
      table_name: state.tableName.trim(),
      private: state.private,
    };
  }
  Object.assign(body, tableOptionsBody());
  const button = /** @type {HTMLButtonElement} */ (byId("create"));
  button.disabled = true;
  try {
    const res = await api("POST", "/api/tables", body);
    setToken(res.table, res.token);   // the creator is the host, at seat 0
    location.href = `/t/${encodeURIComponent(res.table)}`;
  } catch (err) {
    toast(errorText(err), "error");
    button.disabled = false;
  }
}


async function main() {
  // The player's games, friends and invites (yourgames.js, friends.js): drawn from the
  // server once this browser's player is known.
  const games = yourGamesPanel();
  const friends = friendsPanel();
  const invites = invitesBox();
  app.append(
    noticeLine(true),
    invites,
    h("div.lobby-grid", null,
      h("div.col", null, introPanel(), nameField(), playNowPanel(), quickPanel(), createForm()),
      h("div.col", null, games, accountPanel(), dailyPanel(), friends, tablesPanel(), howTo())));
  ensurePlayer().then(() => {
    followYourGames(games);
    followFriends(friends, invites);
  });
  refresh();
  setInterval(() => { if (document.visibilityState === "visible") refresh(); }, 5000);
  api("GET", "/api/games").then((/** @type {ServedGame[]} */ games) => {
    state.games = games;
    if (games.some((g) => g.name !== "cards" && g.name !== "board") && state.renderForm) state.renderForm();
  }, (/** @type {Error} */ err) => toast(t("lobby.gamesUnavailable", { error: errorText(err) }), "warn"));
  try {
    state.rules = await api("GET", "/api/rules");
    const details = document.querySelector("details.house");
    if (details) {
      details.replaceChildren(details.querySelector("summary") || "",
        houseRulesForm(state, state.preset));
      updateRuleCount(state);
    }
  } catch (err) {
    toast(t("lobby.houseRulesUnavailable", { error: errorText(err) }), "warn");
  }
}

function howTo() {
  return h("section.panel.howto", null,
    h("h2", null, t("lobby.howItWorks")),
    h("ol", null,
      h("li", null, t("lobby.how1")),
      h("li", null, t("lobby.how2")),
      h("li", null, t("lobby.how3")),
      h("li", null, t("lobby.how4"))),
    h("p.muted", null, t("lobby.howRemember")));
}

export { inviteUrl };
main();
