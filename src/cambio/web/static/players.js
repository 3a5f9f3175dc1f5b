// Players who come back: this browser's player, the account panel (claim, sign
// in and out, transfer code, delete) and the Play now panel of the lobby.
import { api, errorText, byId, getName, getToken, h, setName, setToken, toast } from "./common.js";
import { formatDate, t } from "./i18n.js";

/**
 * This browser's player as the server says it (POST /api/me): id, name, profile link,
 * whether a username claims it.
 * @typedef {{ id: string, name: string, profile: string, claimed?: boolean, username?: string }} Player
 */
/** @typedef {(player: Player | null) => void} PlayerListener */

/** @type {{ player: Player | null, listeners: PlayerListener[] }} */
const me = { player: null, listeners: [] };

/** The lobby's name field, where the page has one. */
const nameField = () => /** @type {HTMLInputElement | null} */ (document.getElementById("name"));

/** What went wrong, in words. @param {unknown} err */
const message = (err) => (err instanceof Error ? err.message : String(err));

/** This browser's player (made on the first visit; named after the lobby's name field). */
export async function ensurePlayer() {
  try {
    const name = getName();
    const res = await api("POST", "/api/me", name ? { name } : {});
    setPlayer(res.player);
    if (!name && res.player && res.player.name !== "Player") {
      setName(res.player.name);
      const input = nameField();
      if (input && !input.value) input.value = res.player.name;
    }
  } catch (err) {
    // Playing goes on without a player (its seats are then nobody's): say it quietly.
    console.warn(`cambio: no player for this browser (${message(err)})`);
  }
  // The name field renames the player when it is left.
  const input = nameField();
  if (input) {
    input.addEventListener("change", async () => {
      const name = input.value.trim();
      if (!name) return;
      try { setPlayer((await api("POST", "/api/me", { name })).player); } catch { /* kept locally */ }
    });
  }
}

/** @param {Player | null} player */
function setPlayer(player) {
  me.player = player;
  // Signed in (or moved here) as a player with a name: the lobby's name field follows.
  const input = nameField();
  if (player && player.name !== "Player" && input && document.activeElement !== input) {
    input.value = player.name;
    setName(player.name);
  }
  for (const fn of me.listeners) fn(player);
}

// ------------------------------------------------------------------ account
/** @param {string} id @param {string} label @param {Record<string, unknown>} attrs */
function field(id, label, attrs) {
  return h("label.field", { for: id }, h("span", null, label), h("input", { id, name: id, ...attrs }));
}

/** @param {string} id */
function valueOf(id) {
  const el = /** @type {HTMLInputElement | null} */ (document.getElementById(id));
  return el ? el.value : "";
}

/**
 * Call the server; a player in the answer becomes this browser's, `done` is said, an error
 * is shown. Resolves to the answer, or null after an error.
 * @param {() => Promise<any>} fn @param {string} [done]
 */
async function act(fn, done) {
  try {
    const res = await fn();
    if (res && "player" in res) setPlayer(res.player);
    if (done) toast(done, "info");
    return res;
  } catch (err) {
    toast(errorText(err), "error");
    return null;
  }
}

/** @param {Player | null} player @returns {(HTMLElement | string)[]} */
function accountBody(player) {
  if (!player) {
    return [h("p.muted", null, t("account.noPlayer")),
      signInForm(), transferUseForm()];
  }
  const links = h("p.account-links", null,
    h("a", { href: player.profile, id: "my-profile" }, t("account.profileLink")), " · ",
    h("a", { href: "/leaderboard" }, t("account.leaderboard")));
  const who = h("p.account-who", { id: "account-who" },
    player.claimed ? t("account.signedInAs", { username: player.username ?? "" }) : t("account.guest"),
    h("small.muted", null, ` (${player.name})`));
  const parts = [who, links, h("div.elsewhere", { id: "elsewhere" })];
  gamesElsewhere(player);
  if (!player.claimed) {
    parts.push(h("form.account-claim", {
      id: "claim-form",
      onsubmit: async (/** @type {SubmitEvent} */ e) => {
        e.preventDefault();
        // Hashing the password takes a moment: a second press meanwhile would claim twice.
        const button = /** @type {HTMLButtonElement} */ (byId("claim"));
        button.disabled = true;
        button.textContent = t("account.claiming");
        try {
          await act(() => api("POST", "/api/me/claim", { username: valueOf("claim-username"), password: valueOf("claim-password") }),
            t("account.claimed"));
        } finally {
          button.disabled = false;
          button.textContent = t("account.claim");
        }
      },
    },
    h("p.muted", null, t("account.claimHelp")),
    field("claim-username", t("account.username"), { autocomplete: "username", maxlength: 24, required: true }),
    field("claim-password", t("account.password"), { type: "password", autocomplete: "new-password", minlength: 8, required: true }),
    h("button", { type: "submit", id: "claim" }, t("account.claim"))));
    parts.push(transferMakeForm());
    // A guest is made on every first visit, so a new device always has one: signing in or
    // typing a code from another device is offered to it, not only to "no player".
    parts.push(signInForm(), transferUseForm());
  }
  parts.push(h("p.account-actions", null,
    h("button", {
      type: "button", id: "sign-out",
      onclick: async () => {
        if (!player.claimed && !confirm(t("account.signOutGuest"))) return;
        await act(() => api("POST", "/api/logout", {}), t("account.signedOut"));
      },
    }, t("account.signOut")), " ",
    h("button.danger", {
      type: "button", id: "delete-account",
      onclick: async () => {
        if (!confirm(t("account.deleteConfirm"))) return;
        const body = player.claimed ? { password: prompt(t("account.yourPassword")) || "" } : {};
        const res = await act(() => api("DELETE", "/api/me", body), t("account.deleted"));
        if (res) setPlayer(null);
      },
    }, t("account.delete"))));
  return parts;
}

/** The player's games in play whose seat this browser holds no token for (taken on
 * another device): "Your tables" follow the player. */
/** @param {Player} player */
async function gamesElsewhere(player) {
  let profile;
  try {
    profile = await api("GET", `/api/players/${encodeURIComponent(player.id)}`);
  } catch {
    return;
  }
  /** @type {{ table: string, game: string, date: string }[]} */
  const away = (profile.playing || []).filter((/** @type {{ table: string }} */ g) => !getToken(g.table));
  const box = document.getElementById("elsewhere");
  if (!box || !away.length) return;
  box.replaceChildren(h("p", null, t("account.elsewhere")),
    h("ul", null, away.map((g) => h("li", null, `${g.game === "cards" ? t("game.cards") : t("game.board")} · ${formatDate(g.date)} `,
      h("button", {
        type: "button", class: "take-seat", dataset: { table: g.table },
        onclick: async () => {
          const res = await act(() => api("POST", `/api/tables/${encodeURIComponent(g.table)}/seat`, {}));
          if (res) {
            setToken(res.table, res.token);
            location.href = `/t/${encodeURIComponent(res.table)}`;
          }
        },
      }, t("account.takeSeat"))))));
}

function signInForm() {
  return h("form.account-login", {
    id: "login-form",
    onsubmit: async (/** @type {SubmitEvent} */ e) => {
      e.preventDefault();
      await act(() => api("POST", "/api/login", { username: valueOf("login-username"), password: valueOf("login-password") }), t("account.signedIn"));
    },
  },
  h("p.muted", null, t("account.signInHelp")),
  field("login-username", t("account.username"), { autocomplete: "username", maxlength: 24, required: true }),
  field("login-password", t("account.password"), { type: "password", autocomplete: "current-password", required: true }),
  h("button", { type: "submit", id: "login" }, t("account.signIn")));
}

function transferMakeForm() {
  const out = h("span.transfer-code", { id: "transfer-code" });
  return h("p.account-transfer", null,
    h("button", {
      type: "button", id: "transfer-make",
      onclick: async () => {
        const res = await act(() => api("POST", "/api/me/transfer", {}));
        if (res) out.textContent = t("account.code", { code: res.code, count: Math.round(res.expires_in / 60) });
      },
    }, t("account.move")), " ", out);
}

function transferUseForm() {
  return h("form.account-transfer-use", {
    onsubmit: async (/** @type {SubmitEvent} */ e) => {
      e.preventDefault();
      await act(() => api("POST", "/api/transfer", { code: valueOf("transfer-input") }), t("account.moved"));
    },
  },
  h("p.muted", null, t("account.useHelp")),
  field("transfer-input", t("account.transferCode"), { maxlength: 20, autocomplete: "off" }),
  h("button", { type: "submit", id: "transfer-use" }, t("account.useCode")));
}

export function accountPanel() {
  const body = h("div.account-body");
  const panel = h("section.panel.account", { id: "account" },
    h("details", null, h("summary", null, h("h2", null, t("account.title")),
      h("small.muted", null, t("account.summary"))), body));
  const draw = (/** @type {Player | null} */ player) => body.replaceChildren(...accountBody(player));
  me.listeners.push(draw);
  draw(me.player);
  return panel;
}

// ------------------------------------------------------------------ play now
/** @type {[string, string][]} */
const PRESETS = ["house", "rulebook", "wikipedia", "cabo", "cambia", "evan"].map((p) => [p, t(`preset.${p}`)]);
/**
 * The Play now form's choices, and the queue ticket while waiting.
 * @type {{ game: string, preset: string, players: string, setup: string, rated: boolean,
 *   waiting: { ticket: string, token: string } | null, timer: ReturnType<typeof setTimeout> | undefined }}
 */
const now = { game: "cards", preset: "house", players: "2", setup: "quick", rated: true, waiting: null, timer: undefined };

/**
 * @param {string} id @param {string} label @param {[string, string][]} options @param {string} value
 * @param {(value: string) => void} onchange
 */
function select(id, label, options, value, onchange) {
  return h("label.field", { for: id }, h("span", null, label),
    h("select", { id, onchange: (/** @type {import("./common.js").SelectChange} */ e) => onchange(e.target.value) },
      options.map(([v, text]) => h("option", { value: v, selected: String(v) === String(value) }, text))));
}

function playNowForm() {
  /** @type {[string, string][]} */
  const sizes = now.game === "cards"
    ? [["any", t("now.any")], ...[2, 3, 4, 5, 6, 7, 8].map((n) => /** @type {[string, string]} */ ([String(n), t("common.players", { count: n })]))]
    : [["any", t("now.any")], ["2", t("common.players", { count: 2 })], ["3", t("common.players", { count: 3 })]];
  if (!sizes.some(([v]) => v === now.players)) now.players = "2";
  return h("div.play-now-form", null,
    h("div.play-now-row", null,
      select("now-game", t("now.game"), [["cards", t("game.cards")], ["board", t("game.board")]], now.game, (v) => { now.game = v; redraw(); }),
      now.game === "cards"
        ? select("now-preset", t("lobby.rules"), PRESETS, now.preset, (v) => { now.preset = v; })
        : select("now-setup", t("lobby.setup"), [["quick", t("lobby.setupQuick")], ["full", t("now.full")]], now.setup, (v) => { now.setup = v; }),
      select("now-players", t("now.table"), sizes, now.players, (v) => { now.players = v; })),
    h("label.check", null,
      h("input", { type: "checkbox", id: "now-rated", checked: now.rated, onchange: (/** @type {import("./common.js").InputChange} */ e) => { now.rated = e.target.checked; } }),
      h("span", null, t("now.rated"), h("small.rule-help", null, t("now.ratedHelp")))),
    h("button.primary.big", { type: "button", id: "play-now", onclick: playNow }, t("now.playNow")));
}

function waitingView() {
  return h("div.play-now-wait", { id: "play-now-wait" },
    h("p", { id: "play-now-status" }, t("now.looking")),
    h("button", { type: "button", id: "play-now-bots", onclick: fillNow }, t("now.botsNow")), " ",
    h("button", { type: "button", id: "play-now-cancel", onclick: () => leave(true) }, t("common.cancel")));
}

/** @type {HTMLElement | null} */
let panelBody = null;
function redraw() {
  if (panelBody) panelBody.replaceChildren(now.waiting ? waitingView() : playNowForm());
}

/** The name typed in the lobby (kept for next time), or null after asking for one. */
export function playerName() {
  const input = nameField();
  const name = (input ? input.value : getName()).trim();
  if (!name) {
    if (input) { input.focus(); input.classList.add("invalid"); }
    toast(t("lobby.enterNameFirst"), "warn");
    return null;
  }
  setName(name);
  return name;
}

async function playNow() {
  const name = playerName();
  if (!name) return;
  /** @type {Record<string, unknown>} */
  const body = { game: now.game, rated: now.rated, name,
    players: now.players === "any" ? "any" : Number(now.players) };
  if (now.game === "cards") body.preset = now.preset; else body.setup = now.setup;
  const res = await act(() => api("POST", "/api/queue", body));
  if (!res) return;
  now.waiting = { ticket: res.ticket, token: res.token };
  redraw();
  poll();
}

async function poll() {
  const w = now.waiting;
  if (!w) return;
  try {
    const s = await api("GET", `/api/queue?ticket=${encodeURIComponent(w.ticket)}`);
    if (now.waiting !== w) return;
    if (s.state === "matched") {
      setToken(s.table, w.token);
      now.waiting = null;
      location.href = `/t/${encodeURIComponent(s.table)}`;
      return;
    }
    const status = document.getElementById("play-now-status");
    if (status) {
      status.textContent = s.state === "seating" || s.fill_in <= 0
        ? t("now.seating")
        : t("now.lookingBots", { count: Math.ceil(s.fill_in) });
    }
  } catch (err) {
    if (now.waiting === w) {
      toast(errorText(err), "error");
      now.waiting = null;
      redraw();
    }
    return;
  }
  now.timer = setTimeout(poll, 1000);
}

async function fillNow() {
  const w = now.waiting;
  if (w) await act(() => api("POST", "/api/queue/now", { ticket: w.ticket }));
}

/** @param {boolean} redrawAfter */
function leave(redrawAfter) {
  const w = now.waiting;
  if (!w) return;
  now.waiting = null;
  clearTimeout(now.timer);
  // keepalive: still sent while the page goes away
  fetch(`/api/queue?ticket=${encodeURIComponent(w.ticket)}`, { method: "DELETE", keepalive: true }).catch(() => {});
  if (redrawAfter) redraw();
}

export function playNowPanel() {
  panelBody = h("div.play-now-body");
  redraw();
  window.addEventListener("pagehide", () => leave(false));
  return h("section.panel.play-now", { id: "play-now-panel" },
    h("h2", null, t("now.playNow")),
    h("p.muted", null, t("now.help")),
    panelBody);
}
