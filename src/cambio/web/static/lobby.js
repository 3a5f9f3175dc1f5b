// The lobby: your name, a form to create a table (cards or dice board), the open tables.
import {
  api, clear, gameLabel, morphChildren, myTables, noticeLine, tableTitle, getName, getToken, h, inviteUrl, setName, setToken, toast,
} from "./common.js";
import { tableOptionsBody, tableOptionsFields } from "./tableopts.js";
import { startTutorial } from "./tutorial.js";
import {
  PRESET_NAMES, PRESET_NOTES, choosePreset, houseRulesForm, presetValue, updateRuleCount,
} from "./houserules.js";
import { accountPanel, ensurePlayer, playNowPanel } from "./players.js";
import { followYourGames, yourGamesPanel } from "./yourgames.js";
import { followFriends, friendsPanel, invitesBox } from "./friends.js";

const app = document.getElementById("app");
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
  tables: [],
  tableName: "",
  private: false,
};

function nameField() {
  const input = h("input", {
    id: "name", name: "name", type: "text", maxlength: 40, autocomplete: "nickname",
    placeholder: "Your name", value: getName(), required: true,
    oninput: (e) => setName(e.target.value.trim()),
  });
  return h("section.panel.name-panel", null,
    h("label.field", { for: "name" }, h("span", null, "Your name"), input));
}

function playerName() {
  const input = document.getElementById("name");
  const name = (input ? input.value : getName()).trim();
  if (!name) {
    if (input) {
      input.focus();
      input.classList.add("invalid");
    }
    toast("Enter your name first.", "warn");
    return null;
  }
  setName(name);
  return name;
}

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
    onsubmit: (e) => { e.preventDefault(); create(form); },
  });
  const render = () => {
    clear(form);
    form.append(h("h2", null, "New table"));
    // The two games of their own, then any other the server holds (cambio serve --game),
    // with a form drawn from its seats and options.
    const others = state.games.filter((g) => g.name !== "cards" && g.name !== "board");
    form.append(segmented("game", [["cards", "Card game"], ["board", "Dice board game"],
      ...others.map((g) => [g.name, g.name])], state.game, (g) => { state.game = g; render(); }));
    const other = others.find((g) => g.name === state.game);
    if (other) {
      form.append(genericFields(other, form));
    } else if (state.game === "cards") {
      const preset = state.preset;
      form.append(
        h("div.row",
          null,
          h("label.field", { for: "players" }, h("span", null, "Players"),
            h("select", {
              id: "players", name: "players",
              onchange: (e) => { state.players = Number(e.target.value); },
            }, [2, 3, 4, 5, 6, 7, 8].map(
              (n) => h("option", { value: n, selected: n === state.players }, n)))),
          h("label.field", { for: "rounds" }, h("span", null, "Rounds"),
            h("select", {
              id: "rounds", name: "rounds",
              onchange: (e) => { state.rounds = Number(e.target.value); },
            }, Array.from({ length: 20 }, (_, i) => i + 1).map(
              (n) => h("option", { value: n, selected: n === state.rounds }, n))),
            // Rules with a match target (cabo: 100) play to it, whatever the rounds say.
            (() => {
              const target = "match_target" in state.overrides ? state.overrides.match_target
                : presetValue(state, preset, "match_target");
              return target ? h("small.muted", { id: "target-note" }, `these rules play to ${target} points`) : null;
            })())),
        h("fieldset.presets", null, h("legend", null, "Rules"),
          PRESET_NAMES.map((p) => h("label.preset", { for: `preset-${p}` },
            h("input", {
              type: "radio", name: "preset", id: `preset-${p}`, value: p, checked: p === preset,
              onchange: () => { choosePreset(state, p); render(); },
            }),
            h("span.preset-name", null, p),
            h("span.preset-note", null, PRESET_NOTES[p]))),
          h("a.rules-link", { href: `/rules?preset=${preset}`, target: "_blank", rel: "noopener", id: "rules-link" },
            `Read the ${preset} rules, in words`)),
        h("details.house", { open: state.houseOpen, ontoggle: (e) => { state.houseOpen = e.target.open; } },
          h("summary", null, "House rules ", h("span#rule-count.muted", { id: "rule-count" })),
          houseRulesForm(state, preset)),
      );
      updateRuleCount(state);
    } else {
      form.append(
        h("div.row", null,
          h("div.field", null, h("span", null, "Players"),
            segmented("bplayers", [[2, "2 players"], [3, "3 players"]], form.dataset.bplayers || 2,
              (v) => { form.dataset.bplayers = v; })),
          h("div.field", null, h("span", null, "Setup"),
            segmented("setup", [["quick", "Quick"], ["full", "Full (roll and choose)"]],
              form.dataset.setup || "quick", (v) => { form.dataset.setup = v; }))),
        h("p.muted", null, "Push dice into the 5×5 grid; five of your symbol in a line wins. "
          + "With three players a line of four wins."),
      );
    }
    form.append(listingFields());
    form.append(tableOptionsFields());
    form.append(h("button.primary.big", { type: "submit", id: "create" }, "Create table"));
    updateRuleCount(state);
  };
  state.renderForm = render;
  render();
  return form;
}

/** A served game's players and options (GET /api/games), chosen as the lobby's own are. */
function genericFields(game, form) {
  const [low, high] = game.seats;
  const players = Array.from({ length: high - low + 1 }, (_, i) => low + i);
  return h("div.row", null,
    h("div.field", null, h("span", null, "Players"),
      segmented("gplayers", players.map((n) => [n, `${n} players`]), form.dataset.gplayers || low,
        (v) => { form.dataset.gplayers = v; })),
    Object.entries(game.options).map(([name, choices]) => h("div.field", null, h("span", null, name),
      segmented(`option-${name}`, choices.map((c) => [c, c]), form.dataset[`option_${name}`] || choices[0],
        (v) => { form.dataset[`option_${name}`] = v; }))));
}

/** The create body of a served game's table (its own options, their defaults first). */
function genericBody(game, form) {
  const body = { game: game.name, players: Number(form.dataset.gplayers || game.seats[0]) };
  for (const [name, choices] of Object.entries(game.options)) {
    body[name] = form.dataset[`option_${name}`] || choices[0];
  }
  return body;
}

// The table's name and privacy (kept in `state`: the form redraws itself).
function listingFields() {
  return h("div.row.listing", null,
    h("label.field", { for: "table-name" }, h("span", null, "Table name (optional)"),
      h("input", {
        id: "table-name", type: "text", maxlength: 40, value: state.tableName,
        placeholder: getName() ? `${getName()}'s table` : "Your table",
        oninput: (e) => { state.tableName = e.target.value; },
      })),
    h("label.check", { for: "private" },
      h("input", {
        id: "private", type: "checkbox", checked: state.private,
        onchange: (e) => { state.private = e.target.checked; },
      }),
      h("span", null, "Private", h("small.rule-help", null, "Invite only: not listed here; whoever has the link can join."))));
}

async function quickPlay() {
  const name = playerName();
  if (!name) return;
  const button = document.getElementById("quick-play");
  button.disabled = true;
  try {
    // The seats this browser holds: the server sends us back to one of them rather than
    // seating us a second time at a table we already sit at.
    const held = {};
    for (const id of myTables()) held[id] = getToken(id);
    const res = await api("POST", "/api/quickplay", { name, held });
    // Never overwrite a seat this browser holds with another seat of the same table.
    if (!getToken(res.table)) setToken(res.table, res.token);
    location.href = `/t/${encodeURIComponent(res.table)}`;
  } catch (err) {
    toast(err.message, "error");
    button.disabled = false;
  }
}

/** A guided first game: a private table against a bot, dealt the same
 * for everyone by the server (tutorial.js); replayable from here any time. */
async function tutorial(game, id) {
  const name = playerName();
  if (!name) return;
  const button = document.getElementById(id);
  button.disabled = true;
  try {
    location.href = `/t/${encodeURIComponent(await startTutorial(game, name))}`;
  } catch (err) {
    toast(err.message, "error");
    button.disabled = false;
  }
}

/** What Cambio is, first on a phone's screen, with the way to learn it (the panels under it
 * are taller than a phone's screen). */
function introPanel() {
  return h("section.panel.intro", { id: "intro" },
    h("p", null, "Cambio is a card game of memory: your cards lie face down, you peek at a few, "
      + "swap them for lower ones and call \"Cambio\" when you think your total is the lowest."),
    h("button.ghost", { type: "button", id: "learn-intro", onclick: () => tutorial("cards", "learn-intro") },
      "Learn to play"));
}

function quickPanel() {
  // Not yellow like Play now beside it: the two do different things.
  return h("section.panel.quick", null,
    h("button.big", { type: "button", id: "quick-play", onclick: quickPlay }, "Quick play"),
    h("p.muted", null, "A game at once, never a wait: a seat at a card table that is waiting for players, or a new game against a bot. Not rated."),
    h("button.big.ghost", { type: "button", id: "tutorial", onclick: () => tutorial("cards", "tutorial") }, "Learn to play"),
    h("p.muted", null, "New to Cambio? A guided first round against the Easy bot: the page tells you what to do at each step."),
    h("button.big.ghost", { type: "button", id: "tutorial-dice", onclick: () => tutorial("board", "tutorial-dice") }, "Learn the dice game"),
    h("p.muted", null, "A short guided dice game against the Random bot."));
}

async function create(form) {
  const name = playerName();
  if (!name) return;
  let body;
  const other = state.games.find((g) => g.name === state.game && g.name !== "cards" && g.name !== "board");
  if (other) {
    body = { ...genericBody(other, form), name, table_name: state.tableName.trim(), private: state.private };
  } else if (state.game === "cards") {
    body = {
      game: "cards",
      players: Number(document.getElementById("players").value),
      rules: { preset: state.preset, overrides: { ...state.overrides } },
      rounds: Number(document.getElementById("rounds").value),
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
  const button = document.getElementById("create");
  button.disabled = true;
  try {
    const res = await api("POST", "/api/tables", body);
    setToken(res.table, res.token);   // the creator is the host, at seat 0
    location.href = `/t/${encodeURIComponent(res.table)}`;
  } catch (err) {
    toast(err.message, "error");
    button.disabled = false;
  }
}

function tableRow(t) {
  const seats = t.seats || [];
  const taken = seats.filter((s) => s.kind !== "empty").length;
  const mine = !!getToken(t.id);
  const names = seats.filter((s) => s.kind !== "empty")
    .map((s) => (s.kind === "bot" ? s.name || `${s.bot} bot` : s.name)).join(", ");
  return h("li.table-row", { dataset: { table: t.id, key: t.id } },
    h("div.table-info", null,
      h("strong", null, tableTitle(t)),
      h("span.muted", null, gameLabel(t)),
      h("span.seats", null, `${taken}/${seats.length || t.players} seated`, names ? ` · ${names}` : "")),
    h("div.table-actions", null,
      mine
        ? h("a.button.primary", { href: `/t/${encodeURIComponent(t.id)}` }, "Back to my seat")
        : h("button.primary", { type: "button", onclick: () => join(t.id) }, "Join"),
      h("a.button", { href: `/t/${encodeURIComponent(t.id)}?watch=1` }, "Watch")));
}

async function join(id) {
  const name = playerName();
  if (!name) return;
  try {
    const res = await api("POST", `/api/tables/${id}/join`, { name });
    setToken(id, res.token);
    location.href = `/t/${encodeURIComponent(id)}`;
  } catch (err) {
    toast(err.status === 409 ? "That table is full." : err.message, "error");
    refresh();
  }
}

function tablesPanel() {
  return h("section.panel.open-tables", null,
    h("div.panel-head", null,
      h("h2", null, "Open tables"),
      h("button.ghost", { type: "button", onclick: refresh, "aria-label": "Refresh the list" }, "↻ Refresh")),
    h("ul#tables.tables", { id: "tables" }, h("li.muted", null, "Loading…")));
}

async function refresh() {
  const list = document.getElementById("tables");
  if (!list) return;
  try {
    const res = await api("GET", "/api/tables");
    state.tables = res.tables || [];
    const fresh = h("ul");
    if (!state.tables.length) {
      fresh.append(h("li.muted.empty-list", null, "No open tables right now. Create one and send the link!"));
    }
    for (const t of state.tables) fresh.append(tableRow(t));
    morphChildren(list, fresh);         // a Join being tapped survives the refresh
  } catch (err) {
    clear(list).append(h("li.muted", null, `Cannot load tables: ${err.message}`));
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
      h("div.col", null, games, accountPanel(), friends, tablesPanel(), howTo())));
  ensurePlayer().then(() => {
    followYourGames(games);
    followFriends(friends, invites);
  });
  refresh();
  setInterval(() => { if (document.visibilityState === "visible") refresh(); }, 5000);
  api("GET", "/api/games").then((games) => {
    state.games = games;
    if (games.some((g) => g.name !== "cards" && g.name !== "board") && state.renderForm) state.renderForm();
  }, (err) => toast(`The games this server holds are unavailable: ${err.message}`, "warn"));
  try {
    state.rules = await api("GET", "/api/rules");
    const details = document.querySelector("details.house");
    if (details) {
      details.replaceChildren(details.querySelector("summary"),
        houseRulesForm(state, state.preset));
      updateRuleCount(state);
    }
  } catch (err) {
    toast(`House rules unavailable: ${err.message}`, "warn");
  }
}

function howTo() {
  return h("section.panel.howto", null,
    h("h2", null, "How it works"),
    h("ol", null,
      h("li", null, "Create a table and send the invite link to your friends."),
      h("li", null, "Fill empty seats with bots, then start."),
      h("li", null, "Cards: keep your total low, remember what you peeked at, snap matching cards fast, call Cambio when you are ahead."),
      h("li", null, "Dice: push a die into a row or column from its end; make a line of your symbol.")),
    h("p.muted", null, "This browser remembers your player: your seats, games and rating. Claim it with a username to play from other devices. Anyone with the link can watch."));
}

export { inviteUrl };
main();
