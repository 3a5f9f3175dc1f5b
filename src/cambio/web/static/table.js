// A table page (/t/{id}): seats, bots and start while waiting, then the game, live.
import {
  api, byId, clear, errorText, dropToken, morphChildren, gameLabel, getName, getToken, h, inviteUrl,
  noticeLine, seatName, setName, setToken, shareLink, tableTitle, toast,
} from "./common.js";
import { TableConnection } from "./conn.js";
import { buildWaiting } from "./waiting.js";
import { CardsTable } from "./cards.js";
import { BoardUI } from "./board.js";
import { GenericUI } from "./generic.js";
import { loadRules } from "./rules.js";
import { soundToggle } from "./sound.js";
import { TurnClockView } from "./clock.js";
import { ChatView } from "./chat.js";
import { t } from "./i18n.js";
import { chatLineMenu, seatedPeople } from "./social.js";
import { inviteFriendsBox } from "./friends.js";

/** @typedef {import("./messages.js").TableSummary} TableSummary */
/** @typedef {import("./common.js").ApiError} ApiError */
/**
 * A game's table UI (CardsTable, BoardUI, GenericUI), as the page drives it.
 * @typedef {object} GameUI
 * @property {() => void} destroy
 * @property {(summary: TableSummary) => void} setSummary
 * @property {(msg: any) => void} state
 * @property {(msg: any) => void} update
 * @property {(msg: import("./messages.js").ErrorMessage) => string | null | void} [rejected]  its own words for a refusal
 * @property {(msg: import("./messages.js").HintMessage) => void} [showHint]
 */
/** @typedef {{ attempt?: number, code?: number, next?: number }} StatusInfo  conn.js's status details */

const app = byId("app");
const titleEl = byId("title");
const badgesEl = byId("badges");

const parts = location.pathname.split("/").filter(Boolean);
const tableId = decodeURIComponent(parts[1] || new URLSearchParams(location.search).get("id") || "");

/**
 * @type {{ summary: TableSummary | null, seat: number | null, token: string | null, status: string,
 *   statusInfo: StatusInfo, bots: Record<string, import("./waiting.js").BotInfo[]> | null, ui: GameUI | null,
 *   lastState: unknown, welcomed: boolean, rulesCat: import("./rules.js").RulesCatalogue | null,
 *   claimed: boolean | null }}
 */
const page = {
  summary: null,
  seat: null,          // our seat, null for a spectator
  token: getToken(tableId),
  status: "connecting",
  statusInfo: {},
  bots: null,          // GET /api/bots
  ui: null,            // the game's UI (GAME_UIS) once a game is on
  lastState: null,
  welcomed: false,
  rulesCat: null,      // GET /api/rules: the words for house rules
  claimed: null,       // this browser's player has an account (GET /api/me); null: not known
};

const root = h("div.table-root", { dataset: { table: tableId } });
const waitingEl = h("div.waiting");
const gameEl = h("div.game-host");
const clockEl = h("div.clock-host");
const chatEl = h("div.chat-host");
const inviteEl = h("div.invite-host");   // friends to invite, while a seat here waits
root.append(noticeLine(), waitingEl, inviteEl, clockEl, gameEl, chatEl);
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
  lineMenu: chatLineMenu(tableId, seatedPeople(tableId), (seat) => chat.hideSeat(seat)),
  claimed: () => page.claimed,
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
    toast(t("table.seatLost"), "warn");
    conn.restart(null);
  },
});

function isHost() {
  return page.seat !== null && !!page.summary && page.seat === (page.summary.host ?? 0);
}

/** @type {ReturnType<typeof setInterval> | undefined} */
let retryTick;

/** @param {string} status @param {StatusInfo} [info] */
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
  if (page.status === "open") return t("conn.online");
  if (page.status === "gone") return t("conn.gone");
  if (page.status === "connecting") {
    return info.attempt ? t("conn.reconnectingTry", { n: info.attempt + 1 }) : t("conn.connecting");
  }
  if (page.status === "offline") {
    const why = info.code === 1012 ? t("conn.restarting") : t("conn.lost");
    const left = Math.max(0, Math.ceil(((info.next || 0) - Date.now()) / 1000));
    return `${why} · ${left > 0 ? t("conn.reconnectingIn", { count: left }) : t("conn.reconnectingNow")}`;
  }
  return page.status;
}

/** @param {import("./protocol_types.js").Welcome} msg */
function onWelcome(msg) {
  page.welcomed = true;
  page.seat = msg.seat ?? null;
  root.dataset.seat = page.seat === null ? "spectator" : String(page.seat);
  setSummary(msg.table);
}

/** @param {TableSummary | null | undefined} summary */
function setSummary(summary) {
  if (!summary) return;
  const before = page.summary;
  page.summary = summary;
  root.dataset.status = summary.status || "";
  root.dataset.clock = summary.clock ? "on" : "off";   // the clock's line keeps its room
  turnClock.setTitle(`${tableTitle(summary)} · Cambio`);
  chat.render();
  titleEl.textContent = `${tableTitle(summary)} · ${gameLabel(summary)}`;
  renderBadges();
  renderWaiting();
  renderInvite();
  if (page.ui) page.ui.setSummary(summary);
  if (before && before.status === "waiting" && summary.status === "playing") {
    toast(t("table.starts"), "info", 2000);
    window.scrollTo(0, 0);   // from the Start button down the room, up to the table, where the game starts
  }
  root.dataset.halted = summary.halted ? "true" : "false";
  if (summary.halted && !(before && before.halted)) {
    toast(t("table.halted"), "error", 60000);
  }
}

/** Each game's own UI; any other game (one served with `cambio serve --game`) gets the
 * generic one, which draws its view and its legal actions as buttons. */
/** @type {Record<string, typeof CardsTable | typeof BoardUI>} */
const GAME_UIS = { cards: CardsTable, board: BoardUI };

/** The UI for the view's game, made when the game changes. @param {{ game?: string }} view @returns {GameUI} */
function ensureUI(view) {
  const game = (view && view.game) || (page.summary && page.summary.game) || "cards";
  const Kind = GAME_UIS[game] || GenericUI;
  if (!page.ui || !(page.ui instanceof Kind)) {
    if (page.ui) page.ui.destroy();
    clear(gameEl);
    const ui = new Kind(gameEl, {
      act: (action, extra) => act(action, extra),
      hint: () => conn.hint(),
      seat: () => page.seat,
      again: () => playAgain(),
      isHost,
      tableId,
    });
    if (page.summary) ui.setSummary(page.summary);
    page.ui = ui;
  }
  return page.ui;
}

/** @param {any} msg  a `state`: the view is the game's own */
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

/** @param {any} msg  an `update` */
function onUpdate(msg) {
  root.dataset.version = String(msg.version);
  if (!msg.view) return;
  ensureUI(msg.view).update(msg);
  turnClock.view(msg.view);
}

/** @param {import("./messages.js").ErrorMessage} msg */
function onError(msg) {
  const own = page.ui && page.ui.rejected ? page.ui.rejected(msg) : null;
  if (own) toast(own, "info");
  else toast(errorText(msg), msg.code === "stale" ? "info" : "error");
}

/** @param {string} action @param {import("./messages.js").ActExtra} [extra] */
function act(action, extra) {
  if (page.seat === null) return null;
  const ref = conn.act(action, extra);
  if (!ref) toast(t("conn.notConnected"), "warn");
  return ref;
}

async function playAgain() {
  try {
    setSummary(await api("POST", `/api/tables/${tableId}/again`, {}, page.token));
  } catch (err) {
    toast(errorText(err), "error");
  }
}

// ------------------------------------------------------------------ header badges
function renderBadges() {
  clear(badgesEl);
  const s = page.summary;
  badgesEl.append(h("span.badge.conn", {
    class: `conn-${page.status}`, title: t("conn.title"), "aria-live": "polite", id: "conn",
  }, connText()));
  if (page.welcomed && page.seat === null) {
    badgesEl.append(h("span.badge.spectating", { id: "spectating" }, t("table.spectating")));
  } else if (page.seat !== null && s) {
    badgesEl.append(h("span.badge.you", null, t("table.youAre", { name: seatName(s, page.seat) })));
  }
  if (s && page.seat !== null) badgesEl.append(soundToggle());
  if (s) {
    badgesEl.append(h("a.button.ghost.rules-top", {
      href: rulesUrl(), target: "_blank", rel: "noopener", "aria-label": t("table.rulesLabel"),
    }, t("lobby.rules")));
  }
  badgesEl.append(h("button.ghost.invite", {
    type: "button", onclick: share, "aria-label": t("table.inviteLabel"),
  }, t("table.invite")));
}

/** The table's invite link, shared or copied. */
const share = () => shareLink(inviteUrl(tableId), t("table.shareTitle"));

// ------------------------------------------------------------------ the waiting room (waiting.js)
/** @type {Set<string>} */
const touchedBots = new Set();   // the pickers someone chose in: their choice stands

function renderWaiting() {
  // Build the room afresh, then morph the live one into it: what someone is typing or
  // choosing, the focus and a tap under way all survive (morph keeps the nodes).
  const fresh = h("div");
  const s = page.summary;
  if (s) {
    const playing = s.status !== "waiting";
    root.classList.toggle("in-game", playing && !!page.ui);
    if (playing && !page.ui) fresh.append(h("section.panel", null, h("p.muted", null, t("table.loadingGame"))));
    else if (!playing) {
      buildWaiting(fresh, s, {
        seat: page.seat, isHost: isHost(), tableId, bots: page.bots, rulesCat: page.rulesCat,
        touched: touchedBots, rulesUrl: rulesUrl(), joinSeat, addBot, freeSeat, share, start,
      });
    }
  }
  morphChildren(waitingEl, fresh);
  // A morphed <select> keeps the option it had; one nobody has touched shows the default.
  for (const sel of /** @type {NodeListOf<HTMLSelectElement>} */ (waitingEl.querySelectorAll("select.bot-pick"))) {
    if (sel.dataset.chosen && !touchedBots.has(sel.id)) sel.value = sel.dataset.chosen;
  }
}

/** A seated player at a waiting table may invite the friends they follow (friends.js). */
function renderInvite() {
  const wanted = page.seat !== null && page.summary && page.summary.status === "waiting";
  if (!wanted) inviteEl.replaceChildren();
  else if (!inviteEl.firstChild) inviteEl.append(inviteFriendsBox(tableId));
}

function rulesUrl() {
  return page.summary && page.summary.game === "board"
    ? "/rules?game=board" : `/rules?table=${encodeURIComponent(tableId)}`;
}

/** @param {number | undefined} seat */
async function joinSeat(seat) {
  const input = /** @type {HTMLInputElement | null} */ (document.getElementById("join-name"));
  const name = (input ? input.value : getName()).trim();
  if (!name) {
    if (input) input.focus();
    toast(t("lobby.enterNameFirst"), "warn");
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
  } catch (e) {
    const err = /** @type {ApiError} */ (e);
    toast(errorText(err), "error");
  }
}

/** @param {number} seat @param {string} bot */
async function addBot(seat, bot) {
  try {
    setSummary(await api("PUT", `/api/tables/${tableId}/seats/${seat}/bot`, { bot }, page.token));
  } catch (err) {
    toast(errorText(err), "error");
  }
}

/** @param {number} seat */
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
    toast(errorText(err), "error");
  }
}

/** @param {string | undefined} fill  the bot for the empty seats */
async function start(fill) {
  const button = /** @type {HTMLButtonElement | null} */ (document.getElementById("start"));
  if (button) button.disabled = true;
  try {
    setSummary(await api("POST", `/api/tables/${tableId}/start`, fill ? { fill } : {}, page.token));
  } catch (err) {
    toast(errorText(err), "error");
    if (button) button.disabled = false;
  }
}

async function main() {
  if (!tableId) {
    app.replaceChildren(h("section.panel", null, h("h2", null, t("table.noTable")),
      h("a.button", { href: "/" }, t("common.backToLobby"))));
    return;
  }
  try {
    setSummary(await api("GET", `/api/tables/${encodeURIComponent(tableId)}`));
  } catch (e) {
    const err = /** @type {ApiError} */ (e);
    app.replaceChildren(h("section.panel", null,
      h("h2", null, err.status === 404 ? t("table.notFound") : t("table.cannotLoad")),
      h("p.muted", null, errorText(err)),
      h("a.button.primary", { href: "/" }, t("common.backToLobby"))));
    return;
  }
  api("GET", "/api/bots").then((b) => { page.bots = b; renderWaiting(); }).catch(() => {});
  loadRules().then((c) => { page.rulesCat = c; renderWaiting(); }).catch(() => {});
  api("GET", "/api/me").then((me) => { page.claimed = !!(me.player && me.player.claimed); chat.render(); }, () => {});
  renderBadges();
  conn.connect();
}

main();
