// The solo page: the lobby of a game against bots that needs no server (it says what works
// offline), then the table -- the same CardsTable as at a server's table, fed by the offline
// engine (engine.js: the project's Python in Pyodide) through LocalConnection, which speaks
// the server's messages. A finished game's record can be saved; `cambio replay` reads it.
import { byId, clear, errorText, getName, h, noticeLine, setName, toast } from "../common.js";
import { t } from "../i18n.js";
import { CardsTable } from "../cards.js";
import { Engine, LocalConnection } from "./local.js";
import { controlled } from "./pwa.js";

/** @typedef {import("./local.js").SoloSettings} SoloSettings */
/** @typedef {import("../messages.js").TableSummary} TableSummary */
/**
 * engine.json (server/offline.py): where Pyodide and the bundle are, whether this server
 * has them, and the multiplayer server's address, if any.
 * @typedef {import("./engine.js").EngineConfig & { available?: boolean, server?: string | null }} SoloConfig
 */
/** What the engine sent, in order, for the browser tests. @typedef {{ messages: object[], settings: SoloSettings | null }} SoloTrace */

/** @type {[string, string][]} */
const BOTS = [
  ["random", t("solo.botRandom")],
  ["easy", t("bot.easy")],
  ["memory", t("bot.medium")],
  ["expert", t("solo.botExpert")],
];
const LOCAL_FRAMES = "cambio:solo-frames";   // what replay.js?local=1 shows
/** @type {[string, string][]} */
const PRESETS = ["house", "rulebook", "wikipedia",
  "cabo", "cambia", "evan"].map((p) => [p, t(`preset.${p}`)]);

const params = new URLSearchParams(location.search);
const app = byId("app");
const badgesEl = byId("badges");
const root = h("div.table-root.solo-root", { dataset: { engine: "loading" } });
const setupEl = h("div.solo-setup-host");
const gameEl = h("div.game-host");
const actionsEl = h("div.solo-actions", { hidden: true });
root.append(noticeLine(), setupEl, gameEl, actionsEl);
app.replaceChildren(root);

/**
 * @type {{ config: SoloConfig | null, engine: Engine | null, conn: LocalConnection | null,
 *   ui: CardsTable | null, summary: TableSummary | null, settings: Omit<SoloSettings, "seed"> | null,
 *   engineState: string, engineNote: string, engineCached: boolean, multiplayer: string | null, pending: boolean }}
 */
const page = {
  config: null, engine: null, conn: null, ui: null, summary: null, settings: null,
  engineState: "loading", engineNote: "", engineCached: false, multiplayer: null, pending: false,
};
/** What the engine sent, in order: the tests compare it with the server's engine. */
const traced = /** @type {Window & { cambioSolo: SoloTrace }} */ (/** @type {unknown} */ (window));
traced.cambioSolo = { messages: [], settings: null };

function randomSeed() {
  const words = crypto.getRandomValues(new Uint32Array(2));
  return (words[0] & 0x1fffff) * 2 ** 32 + words[1];   // 53 bits: exact in a JS number
}

function engineText() {
  switch (page.engineState) {
    case "ready": return t("solo.engineReady");
    case "unavailable": return t("solo.engineUnavailable");
    case "failed": return t("solo.engineFailed", { why: page.engineNote });
    default: return page.engineCached
      ? t("solo.engineStarting")
      : t("solo.engineLoading");
  }
}

function renderSetup() {
  const offline = params.has("offline") || !navigator.onLine;
  const form = h("form.solo-form", { id: "solo-form", onsubmit: (/** @type {SubmitEvent} */ e) => { e.preventDefault(); start(); } },
    h("label.field", { for: "solo-name" }, h("span", null, t("lobby.yourName")),
      h("input", { id: "solo-name", type: "text", maxlength: 40, value: getName() || t("common.you"), required: true })),
    h("label.field", { for: "solo-opponents" }, h("span", null, t("solo.bots")),
      h("select", { id: "solo-opponents" }, [1, 2, 3].map((n) => h("option", { value: n, selected: n === 2 }, String(n))))),
    h("label.field", { for: "solo-bot" }, h("span", null, t("waiting.botStrength")),
      h("select", { id: "solo-bot" }, BOTS.map(([v, label]) => h("option", { value: v, selected: v === "memory" }, label)))),
    h("label.field", { for: "solo-rules" }, h("span", null, t("lobby.rules")),
      h("select", { id: "solo-rules" }, PRESETS.map(([v, label]) => h("option", { value: v }, label)))),
    h("button.primary.big", {
      type: "submit", id: "solo-start",
      disabled: page.pending || page.engineState === "unavailable" || page.engineState === "failed",
    }, page.pending ? t("solo.dealingWhenReady") : t("solo.deal")));
  const multiplayer = page.multiplayer
    ? h("p", null, t("solo.withFriends"), " ", h("a", { href: page.multiplayer, id: "multiplayer" }, t("solo.multiplayerLobby")), ` (${t("solo.online")}).`)
    : h("p.muted", null, t("solo.noServer"));
  setupEl.replaceChildren(h("section.panel.solo-setup", { id: "solo-setup" },
    h("h2", null, t("solo.heading")),
    offline ? h("p.offline-note", { id: "offline-note" }, t("solo.offline")) : null,
    h("p.engine-status", { id: "engine-status", dataset: { state: page.engineState } }, engineText()),
    form,
    h("div.offline-help", { id: "offline-help" },
      h("h3", null, t("solo.worksOffline")),
      h("ul", null,
        h("li", null, t("solo.offline1")),
        h("li", null, t("solo.offline2"), " ", h("code", null, "cambio replay FILE"))),
      h("h3", null, t("solo.needsNetwork")),
      h("ul", null,
        h("li", null, t("solo.network1")))),
    multiplayer));
}

function renderBadges() {
  const state = page.engineState === "ready" ? "open" : page.engineState;
  badgesEl.replaceChildren(h("span.badge.conn", { id: "conn", class: `conn-${state}` },
    page.engineState === "ready" ? t("solo.engineBadge") : t(`solo.state.${page.engineState}`)));
}

/** Show the engine's state and the Deal button's, keeping what is chosen in the form. */
function refreshSetup() {
  const status = document.getElementById("engine-status");
  const button = /** @type {HTMLButtonElement | null} */ (document.getElementById("solo-start"));
  if (!status || !button) { if (!page.ui) renderSetup(); return; }
  status.dataset.state = page.engineState;
  status.textContent = engineText();
  button.disabled = page.pending || page.engineState === "unavailable" || page.engineState === "failed";
  button.textContent = page.pending ? t("solo.dealingWhenReady") : t("solo.deal");
}

/** @param {string} state @param {string} [note] */
function setEngine(state, note = "") {
  page.engineState = state;
  page.engineNote = note;
  root.dataset.engine = state;
  refreshSetup();
  renderBadges();
}

/** @type {{ resolve: (engine: Engine) => void, reject: (err: unknown) => void }} */
let engineReady = { resolve() {}, reject() {} };
/** Resolves once the engine exists (it may still be loading); rejects if it cannot.
 * @type {Promise<Engine>} */
const engineMade = new Promise((resolve, reject) => { engineReady = { resolve, reject }; });
engineMade.catch(() => {});

async function loadEngine() {
  try {
    const res = await fetch(new URL("../offline/engine.json", import.meta.url));
    page.config = /** @type {SoloConfig} */ (await res.json());
  } catch (err) {
    setEngine("failed", t("solo.settingsUnread"));
    engineReady.reject(err);
    return;
  }
  const config = page.config;
  page.multiplayer = config.server || null;
  // A visit after the first finds the engine kept by the service worker (sw.js's
  // ENGINE_CACHE): no 13 MB to promise then.
  try {
    page.engineCached = (await caches.keys()).some((k) => k.startsWith("cambio-engine-"));
  } catch { page.engineCached = false; }   // no Cache API (an insecure origin)
  renderSetup();   // with the multiplayer link
  if (!config.available) {
    setEngine("unavailable");
    engineReady.reject(new Error("no engine"));
    return;
  }
  // Wait until the service worker controls the page, so what the engine loads is kept.
  await Promise.race([controlled, new Promise((r) => setTimeout(r, 8000))]);
  const base = new URL("../../", import.meta.url).href;
  const engine = new Engine(config, base);
  page.engine = engine;
  engineReady.resolve(engine);
  engine.listen((data) => {
    if (data.op === "messages") traced.cambioSolo.messages.push(...(data.messages || []));
  });
  try {
    const ms = await engine.ready;
    root.dataset.engineMs = String(ms);
    setEngine("ready");
  } catch (err) {
    setEngine("failed", /** @type {Error} */ (err).message);
  }
}

async function start(again = false) {
  if (!again) {
    /** @param {string} id */
    const field = (id) => /** @type {HTMLInputElement | HTMLSelectElement} */ (byId(id)).value;
    const name = field("solo-name").trim() || "You";
    setName(name);
    const n = Number(field("solo-opponents"));
    const bot = field("solo-bot");
    page.settings = {
      name, bots: Array(n).fill(bot),
      rules: { preset: field("solo-rules"), overrides: {} },
      speed: Number(params.get("speed")) || 1,
    };
  }
  if (page.pending) return;
  // Dealt as soon as the engine is ready (the first visit loads it in the background).
  page.pending = true;
  refreshSetup();
  /** @type {Engine} */
  let engine;
  try {
    engine = await engineMade;
  } catch {
    page.pending = false;
    refreshSetup();
    return;
  }
  const seed = !again && params.has("seed") ? Number(params.get("seed")) : randomSeed();
  const settings = { ...page.settings, seed };
  traced.cambioSolo = { messages: [], settings };
  try {
    await engine.ready;
  } catch {
    page.pending = false;
    refreshSetup();
    return;
  }
  page.pending = false;
  if (page.conn) page.conn.close();
  if (page.ui) { page.ui.destroy(); page.ui = null; }
  clear(gameEl);
  setupEl.replaceChildren();
  const conn = new LocalConnection(engine, settings, {
    welcome: (msg) => setSummary(msg.table),
    state: (msg) => ensureUI().state(msg),
    update: (msg) => ensureUI().update(msg),
    table: (msg) => setSummary(msg.table),
    error: (msg) => {
      const own = page.ui && page.ui.rejected ? page.ui.rejected(msg) : null;
      toast(own || errorText(msg), own || msg.code === "stale" ? "info" : "error");
    },
    status: () => {},
    tokenRefused: () => {},
    failed: (message) => toast(t("solo.engineError", { why: message }), "error", 10000),
  });
  page.conn = conn;
  conn.connect();
}

/** @param {TableSummary} summary */
function setSummary(summary) {
  page.summary = summary;
  root.dataset.status = summary.status || "";
  root.classList.add("in-game");
  byId("title").textContent = t("solo.title", { players: t("common.players", { count: summary.players ?? 0 }) });
  if (page.ui) page.ui.setSummary(summary);
  renderActions();
}

function ensureUI() {
  if (!page.ui) {
    const ui = new CardsTable(gameEl, {
      act: (action, extra) => (page.conn ? page.conn.act(action, extra) : null),
      seat: () => 0,
      again: () => start(true),
      isHost: () => true,
      tableId: "solo",
    });
    if (page.summary) ui.setSummary(page.summary);
    page.ui = ui;
  }
  return page.ui;
}

function renderActions() {
  const finished = page.summary && page.summary.status === "finished";
  actionsEl.hidden = !page.summary;
  // replaceChildren, unlike h(), writes a null child out as the text "null": leave it out.
  actionsEl.replaceChildren(.../** @type {HTMLElement[]} */ ([
    h("button", { type: "button", id: "export", disabled: !finished, onclick: saveRecord,
      title: finished ? t("solo.saveHelp") : t("solo.saveLater") },
    t("solo.save")),
    finished ? h("button", { type: "button", id: "solo-replay", onclick: watchReplay }, t("results.replay")) : null,
    h("button.ghost", { type: "button", id: "new-game", onclick: newGame }, t("solo.newGame")),
  ].filter(Boolean)));
}

/** The replay viewer on this game's record, in another tab (this game stays here). */
async function watchReplay() {
  if (!page.engine) return;
  const text = await page.engine.frames();
  try { localStorage.setItem(LOCAL_FRAMES, text); } catch { toast(t("solo.noStorage"), "warn"); return; }
  window.open(new URL("./replay.html?local=1", import.meta.url).href, "_blank");
}

async function saveRecord() {
  if (!page.engine) return;
  const text = await page.engine.record();
  const seed = traced.cambioSolo.settings ? traced.cambioSolo.settings.seed : "game";
  const url = URL.createObjectURL(new Blob([text], { type: "application/x-ndjson" }));
  const a = h("a", { href: url, download: `cambio-solo-${seed}.jsonl` });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
}

function newGame() {
  if (page.conn) page.conn.close();
  if (page.ui) { page.ui.destroy(); page.ui = null; }
  page.summary = null;
  clear(gameEl);
  root.classList.remove("in-game");
  actionsEl.hidden = true;
  renderSetup();
}

renderSetup();
renderBadges();
loadEngine();
