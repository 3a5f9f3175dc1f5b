// A table page (/t/{id}): seats, bots and start while waiting, then the game, live.
import {
  api, clear, copyText, dropToken, morphChildren, gameLabel, getName, getToken, h, inviteUrl,
  noticeLine, seatName, setName, setToken, tableTitle, toast,
} from "./common.js";
import { TableConnection } from "./conn.js";
import { CardsTable } from "./cards.js";
import { BoardUI } from "./board.js";
import { GenericUI } from "./generic.js";
import { houseRuleLines, loadRules } from "./rules.js";
import { soundToggle } from "./sound.js";
import { TurnClockView } from "./clock.js";
import { ChatView } from "./chat.js";

const app = document.getElementById("app");
const titleEl = document.getElementById("title");
const badgesEl = document.getElementById("badges");

const parts = location.pathname.split("/").filter(Boolean);
const tableId = decodeURIComponent(parts[1] || new URLSearchParams(location.search).get("id") || "");

const page = {
  summary: null,
  seat: null,          // our seat, null for a spectator
  token: getToken(tableId),
  status: "connecting",
  bots: null,          // GET /api/bots
  ui: null,            // the game's UI (GAME_UIS) once a game is on
  lastState: null,
  welcomed: false,
  rulesCat: null,      // GET /api/rules: the words for house rules
};

const root = h("div.table-root", { dataset: { table: tableId } });
const waitingEl = h("div.waiting");
const gameEl = h("div.game-host");
const clockEl = h("div.clock-host");
const chatEl = h("div.chat-host");
root.append(noticeLine(), waitingEl, clockEl, gameEl, chatEl);
app.append(root);
const turnClock = new TurnClockView(clockEl, {
  seat: () => page.seat,
  summary: () => page.summary,
  back: () => conn.send({ type: "back" }),
});
const chat = new ChatView(chatEl, {
  seat: () => page.seat,
  summary: () => page.summary,
  send: (msg) => conn.send(msg),
});

const conn = new TableConnection(tableId, page.token, {
  welcome: onWelcome,
  state: onState,
  update: onUpdate,
  table: (msg) => setSummary(msg.table),
  error: onError,
  hint: (msg) => (page.ui && page.ui.showHint ? page.ui.showHint(msg) : toast(msg.text, "info", 8000)),
  clock: (msg) => turnClock.clock(msg),
  chat_log: (msg) => chat.chatLog(msg),
  chat: (msg) => chat.chat(msg),
  status: onStatus,
  tokenRefused: () => {
    dropToken(tableId);
    page.token = null;
    page.seat = null;
    toast("This browser no longer holds a seat here; you are watching.", "warn");
    conn.restart(null);
  },
});

function isHost() {
  return page.seat !== null && page.summary && page.seat === (page.summary.host ?? 0);
}

let retryTick = null;

function onStatus(status, info) {
  page.status = status;
  page.statusInfo = info || {};
  root.dataset.conn = status;
  clearInterval(retryTick);
  // Offline: the badge counts down to the next try, once a second.
  if (status === "offline") retryTick = setInterval(renderBadges, 1000);
  renderBadges();
}

/** The connection badge's words: what is happening, and when the page tries next. */
function connText() {
  const info = page.statusInfo || {};
  if (page.status === "open") return "online";
  if (page.status === "gone") return "table gone";
  if (page.status === "connecting") {
    return info.attempt ? `reconnecting… (try ${info.attempt + 1})` : "connecting…";
  }
  if (page.status === "offline") {
    const why = info.code === 1012 ? "server restarting" : "connection lost";
    const left = Math.max(0, Math.ceil(((info.next || 0) - Date.now()) / 1000));
    return `${why} · reconnecting ${left > 0 ? `in ${left} s` : "now"}`;
  }
  return page.status;
}

function onWelcome(msg) {
  page.welcomed = true;
  page.seat = msg.seat ?? null;
  root.dataset.seat = page.seat === null ? "spectator" : String(page.seat);
  setSummary(msg.table);
}

function setSummary(summary) {
  if (!summary) return;
  const before = page.summary;
  page.summary = summary;
  root.dataset.status = summary.status;
  root.dataset.clock = summary.clock ? "on" : "off";   // the clock's line keeps its room
  turnClock.setTitle(`${tableTitle(summary)} · Cambio`);
  chat.render();
  titleEl.textContent = `${tableTitle(summary)} · ${gameLabel(summary)}`;
  renderBadges();
  renderWaiting();
  if (page.ui) page.ui.setSummary(summary);
  if (before && before.status === "waiting" && summary.status === "playing") {
    toast("The game starts!", "info", 2000);
    window.scrollTo(0, 0);   // from the Start button down the room, up to the table, where the game starts
  }
  root.dataset.halted = summary.halted ? "true" : "false";
  if (summary.halted && !(before && before.halted)) {
    toast(`This table is halted: ${summary.halted}`, "error", 60000);
  }
}

/** Each game's own UI; any other game (one served with `cambio serve --game`) gets the
 * generic one, which draws its view and its legal actions as buttons. */
const GAME_UIS = { cards: CardsTable, board: BoardUI };

function ensureUI(view) {
  const game = (view && view.game) || (page.summary && page.summary.game) || "cards";
  const Kind = GAME_UIS[game] || GenericUI;
  if (!page.ui || !(page.ui instanceof Kind)) {
    if (page.ui) page.ui.destroy();
    clear(gameEl);
    page.ui = new Kind(gameEl, {
      act: (action, extra) => act(action, extra),
      hint: () => conn.hint(),
      seat: () => page.seat,
      summary: () => page.summary,
      again: () => playAgain(),
      isHost,
      tableId,
    });
    page.ui.setSummary(page.summary);
  }
  return page.ui;
}

function onState(msg) {
  page.lastState = msg;
  root.dataset.version = String(msg.version);
  if (!msg.view) {
    if (page.ui) { page.ui.destroy(); page.ui = null; clear(gameEl); }
    renderWaiting();
    return;
  }
  ensureUI(msg.view).state(msg);
  turnClock.view(msg.view);
  renderWaiting();
}

function onUpdate(msg) {
  root.dataset.version = String(msg.version);
  if (!msg.view) return;
  ensureUI(msg.view).update(msg);
  turnClock.view(msg.view);
}

const ERROR_TEXT = {
  stale: "Someone acted first; the table has moved on.",
  not_playing: "The game is not in play.",
  forbidden: "You cannot act for that seat.",
  rate_limited: "Slow down a little.",
  busy: "The server is busy; trying again…",
  unavailable: "This table cannot be loaded right now.",
};

function onError(msg) {
  const text = msg.code === "illegal" ? msg.message : (ERROR_TEXT[msg.code] || msg.message);
  const own = page.ui && page.ui.rejected ? page.ui.rejected(msg) : null;
  if (own) toast(own, "info");
  else toast(text || "Refused.", msg.code === "stale" ? "info" : "error");
}

function act(action, extra) {
  if (page.seat === null) return null;
  const ref = conn.act(action, extra);
  if (!ref) toast("Not connected; reconnecting…", "warn");
  return ref;
}

async function playAgain() {
  try {
    setSummary(await api("POST", `/api/tables/${tableId}/again`, {}, page.token));
  } catch (err) {
    toast(err.message, "error");
  }
}

// ------------------------------------------------------------------ header badges
function renderBadges() {
  clear(badgesEl);
  const s = page.summary;
  badgesEl.append(h("span.badge.conn", {
    class: `conn-${page.status}`, title: "Connection", "aria-live": "polite", id: "conn",
  }, connText()));
  if (page.welcomed && page.seat === null) {
    badgesEl.append(h("span.badge.spectating", { id: "spectating" }, "Spectating"));
  } else if (page.seat !== null && s) {
    badgesEl.append(h("span.badge.you", null, `You: ${seatName(s, page.seat)}`));
  }
  if (s && page.seat !== null) badgesEl.append(soundToggle());
  if (s) {
    badgesEl.append(h("a.button.ghost.rules-top", {
      href: rulesUrl(), target: "_blank", rel: "noopener", "aria-label": "The rules of this table",
    }, "Rules"));
  }
  badgesEl.append(h("button.ghost.invite", {
    type: "button", onclick: share, "aria-label": "Copy the invite link",
  }, "Invite"));
}

async function share() {
  const url = inviteUrl(tableId);
  if (navigator.share && matchMedia("(pointer: coarse)").matches) {
    try {
      await navigator.share({ title: "Join my Cambio table", url });
      return;
    } catch { /* cancelled: fall back to copying */ }
  }
  toast(await copyText(url) ? "Invite link copied." : url, "info");
}

// ------------------------------------------------------------------ the waiting room
function botsFor(game) {
  if (!page.bots) return [];
  return page.bots[game] || [];
}

// The card bots a newcomer chooses from: three levels, Medium first
// chosen; the research bots are listed under "More bots". Data-driven: a bot the server
// marks `main` (true/false) or `default` is taken at its word; without marks, by name.
const MAIN_BOTS = { cards: ["easy", "medium", "hard", "master"] };
const MAIN_LABELS = { easy: "Easy", medium: "Medium", hard: "Hard", master: "Master" };
const DEFAULT_BOTS = { cards: "medium" };
const touchedBots = new Set();   // the pickers someone chose in: their choice stands

function isMainBot(b, game) {
  if (typeof b.main === "boolean") return b.main;
  const main = MAIN_BOTS[game];
  return !main || main.includes(b.name);
}

function botLabel(b, game) {
  const stars = b.strength ? ` (${"★".repeat(Math.min(5, b.strength))})` : "";
  const main = game === "cards" && isMainBot(b, game) && typeof b.main !== "boolean";
  return `${(main && MAIN_LABELS[b.name]) || b.label || b.name}${stars}`;
}

function botSelect(id, game) {
  const bots = botsFor(game);
  const marked = bots.find((b) => b.default === true);
  const strongest = bots.reduce((a, b) => (b.strength > (a ? a.strength : -1) ? b : a), null);
  const chosen = marked || bots.find((b) => b.name === DEFAULT_BOTS[game]) || strongest;
  const option = (b) => h("option", { value: b.name, selected: chosen && b.name === chosen.name }, botLabel(b, game));
  // An alias (the server lists `medium` for `memory`, `hard` for `deep`) is shown only as a
  // level; a bot shown as a level is not listed again under More bots.
  const levels = MAIN_BOTS[game] || [];
  const main = bots.filter((b) => isMainBot(b, game) && (!b.alias_of || levels.includes(b.name)));
  const shown = new Set(main.map((b) => b.alias_of || b.name));
  const more = bots.filter((b) => !isMainBot(b, game) && !b.alias_of && !shown.has(b.name));
  return h("select", {
    id, class: "bot-pick", "aria-label": "Bot strength", dataset: { chosen: chosen ? chosen.name : "" },
    onchange: (e) => { touchedBots.add(e.target.id); },
  },
    main.map(option),
    more.length ? h("optgroup", { label: "More bots (research)" }, more.map(option)) : null);
}

function renderWaiting() {
  // Build the room afresh, then morph the live one into it: what someone is typing or
  // choosing, the focus and a tap under way all survive (morph keeps the nodes).
  const fresh = h("div");
  buildWaiting(fresh);
  morphChildren(waitingEl, fresh);
  // A morphed <select> keeps the option it had; one nobody has touched shows the default.
  for (const sel of waitingEl.querySelectorAll("select.bot-pick")) {
    if (sel.dataset.chosen && !touchedBots.has(sel.id)) sel.value = sel.dataset.chosen;
  }
}

function buildWaiting(waitingEl) {
  const s = page.summary;
  if (!s) return;
  const playing = s.status !== "waiting";
  root.classList.toggle("in-game", playing && !!page.ui);
  if (playing && page.ui) return;
  if (playing && !page.ui) {
    waitingEl.append(h("section.panel", null, h("p.muted", null, "Loading the game…")));
    return;
  }
  const seated = page.seat !== null;
  const free = s.seats.filter((x) => x.kind === "empty");
  const panel = h("section.panel.seats-panel", null,
    h("h2", null, tableTitle(s)),
    h("p.muted", null, gameLabel(s)),
    houseRulesBox(s));

  const list = h("ul.seat-list");
  for (const seat of s.seats) {
    const me = seat.seat === page.seat;
    const row = h("li.seat-row", { dataset: { seat: seat.seat, kind: seat.kind } });
    const who = seat.kind === "empty"
      ? h("span.muted", null, "Empty seat")
      : h("span.who", null,
        h("strong", null, seat.name || seat.bot || `Seat ${seat.seat + 1}`),
        seat.kind === "bot" ? h("span.tag.bot", null, "bot") : null,
        me ? h("span.tag.you", null, "you") : null,
        seat.seat === (s.host ?? 0) ? h("span.tag", null, "host") : null,
        seat.kind === "human" && !seat.connected && !me ? h("span.tag.off", null, "offline") : null);
    row.append(h("span.seat-no", null, seat.seat + 1), who);
    const controls = h("span.seat-controls");
    if (isHost() && seat.kind === "empty") {
      const sel = botSelect(`bot-${seat.seat}`, s.game);
      controls.append(sel, h("button", {
        type: "button", class: "add-bot",
        // Read the live select: the room is morphed, `sel` may be a discarded copy.
        onclick: () => addBot(seat.seat, document.getElementById(`bot-${seat.seat}`).value),
      }, "Add bot"));
    }
    if (seat.kind === "empty" && !seated) {
      controls.append(h("button.primary", {
        type: "button", class: "sit", onclick: () => joinSeat(seat.seat),
      }, "Sit here"));
    }
    if ((isHost() && seat.kind === "bot") || (me && !isHost())) {
      controls.append(h("button.ghost", {
        type: "button", onclick: () => freeSeat(seat.seat),
      }, me ? "Leave" : "Remove"));
    }
    row.append(controls);
    list.append(row);
  }
  panel.append(list);

  if (!seated && free.length) {
    panel.append(h("form.join-form", {
      onsubmit: (e) => { e.preventDefault(); joinSeat(undefined); },
    },
    h("label.field", { for: "join-name" }, h("span", null, "Your name"),
      h("input", {
        id: "join-name", type: "text", maxlength: 40, value: getName(), required: true,
        autocomplete: "nickname",
      })),
    h("button.primary.big", { type: "submit", id: "join" }, "Join the table")));
  } else if (!seated) {
    panel.append(h("p.muted", null, "Every seat is taken: you are watching."));
  }

  const url = inviteUrl(tableId);
  panel.append(h("div.invite-box", null,
    h("label.field", { for: "invite" }, h("span", null, "Invite link"),
      h("input", { id: "invite", type: "text", readonly: true, value: url, onfocus: (e) => e.target.select() })),
    h("button", { type: "button", id: "copy-invite", onclick: share }, "Copy link")));

  if (isHost()) {
    const fillSel = botSelect("fill-bot", s.game);
    panel.append(h("div.start-box", null,
      free.length
        ? h("label.field.inline", { for: "fill-bot" }, h("span", null, `Fill ${free.length} empty seat${free.length > 1 ? "s" : ""} with`), fillSel)
        : null,
      h("button.primary.big", {
        type: "button", id: "start",
        onclick: () => start(free.length ? document.getElementById("fill-bot").value : undefined),
      }, free.length ? "Start with bots" : "Start")));
  } else if (seated) {
    panel.append(h("p.waiting-note", null, "Waiting for the host to start…"));
  }
  waitingEl.append(panel);
}

/** A card table's house rules in words (not field identifiers), and the rules page. */
function houseRulesBox(s) {
  if (s.game !== "cards") return null;
  const lines = houseRuleLines(page.rulesCat, s.rules);
  return h("div.house-list", null,
    lines.length
      ? h("ul", { id: "house-rules" }, lines.map((r) => h("li", { dataset: { rule: r.name }, title: r.help },
        h("strong", null, r.label), `: ${r.value}`, r.help ? h("small.rule-help", null, r.help) : null)))
      : null,
    h("a.button.rules-link", { href: rulesUrl(), target: "_blank", rel: "noopener" }, "Read the rules"));
}

function rulesUrl() {
  return page.summary && page.summary.game === "board"
    ? "/rules?game=board" : `/rules?table=${encodeURIComponent(tableId)}`;
}

async function joinSeat(seat) {
  const input = document.getElementById("join-name");
  const name = (input ? input.value : getName()).trim();
  if (!name) {
    if (input) input.focus();
    toast("Enter your name first.", "warn");
    return;
  }
  setName(name);
  try {
    const body = seat === undefined ? { name } : { name, seat };
    const res = await api("POST", `/api/tables/${tableId}/join`, body);
    setToken(tableId, res.token);
    page.token = res.token;
    page.seat = res.seat;
    conn.restart(res.token);
  } catch (err) {
    toast(err.status === 409 ? "That seat was just taken." : err.message, "error");
  }
}

async function addBot(seat, bot) {
  try {
    setSummary(await api("PUT", `/api/tables/${tableId}/seats/${seat}/bot`, { bot }, page.token));
  } catch (err) {
    toast(err.message, "error");
  }
}

async function freeSeat(seat) {
  try {
    setSummary(await api("DELETE", `/api/tables/${tableId}/seats/${seat}`, undefined, page.token));
    if (seat === page.seat) {
      dropToken(tableId);
      page.token = null;
      page.seat = null;
      conn.restart(null);
    }
  } catch (err) {
    toast(err.message, "error");
  }
}

async function start(fill) {
  const button = document.getElementById("start");
  if (button) button.disabled = true;
  try {
    setSummary(await api("POST", `/api/tables/${tableId}/start`, fill ? { fill } : {}, page.token));
  } catch (err) {
    toast(err.message, "error");
    if (button) button.disabled = false;
  }
}

async function main() {
  if (!tableId) {
    app.replaceChildren(h("section.panel", null, h("h2", null, "No table here"),
      h("a.button", { href: "/" }, "Back to the lobby")));
    return;
  }
  try {
    setSummary(await api("GET", `/api/tables/${encodeURIComponent(tableId)}`));
  } catch (err) {
    app.replaceChildren(h("section.panel", null,
      h("h2", null, err.status === 404 ? "This table does not exist" : "Cannot load the table"),
      h("p.muted", null, err.message),
      h("a.button.primary", { href: "/" }, "Back to the lobby")));
    return;
  }
  api("GET", "/api/bots").then((b) => { page.bots = b; renderWaiting(); }).catch(() => {});
  loadRules().then((c) => { page.rulesCat = c; renderWaiting(); }).catch(() => {});
  renderBadges();
  conn.connect();
}

main();
