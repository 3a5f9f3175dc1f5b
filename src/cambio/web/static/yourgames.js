// @ts-check
// "Your games": the player's tables that are not over, their move first (GET
// /api/players/me/games, from any device of the player), on the lobby and their own profile.
// The count of games waiting for their move goes into the page title ("(2) Cambio") and the
// installed app's badge; when a game becomes their move while a Cambio page is open, a
// notification says so (only once the player allowed it; never anything of a card: the
// table's name and nothing else).
import { api, errorText, gameLabel, getToken, h, seatName, setToken, tableTitle, toast } from "./common.js";
import { language, t } from "./i18n.js";

/**
 * @typedef {object} YourGame
 * @property {any} table  the table's public summary
 * @property {number} seat  the player's seat there
 * @property {number | null} turn  the seat whose decision the game waits for
 * @property {boolean} your_move
 * @property {number | null} deadline  when the decision on the clock is due (epoch seconds)
 * @property {string} link
 */

const SEEN_KEY = "cambio:your-move";
const POLL_MS = 15_000;

/**
 * The page title with the count of games waiting for the player in front ("(2) Cambio");
 * a count already there is replaced, none is put for 0.
 * @param {string} title @param {number} count
 */
export function titleWithCount(title, count) {
  const bare = title.replace(/^\(\d+\) /, "");
  return count > 0 ? `(${count}) ${bare}` : bare;
}

/**
 * The games that are the player's move now and were not at the last look (by table id).
 * @param {Iterable<string>} before  tables that were the player's move
 * @param {YourGame[]} games
 */
export function newlyYourMove(before, games) {
  const was = new Set(before);
  return games.filter((g) => g.your_move && !was.has(g.table.id));
}

/**
 * "in 3 hours", "in 2 days", "5 minutes ago": how far `at` (epoch seconds) is from `now`
 * (milliseconds), in the reader's language.
 * @param {number} at @param {number} now
 */
export function fromNow(at, now) {
  const seconds = at - now / 1000;
  const format = new Intl.RelativeTimeFormat(language(), { numeric: "auto" });
  const units = /** @type {const} */ ([["day", 86400], ["hour", 3600], ["minute", 60]]);
  for (const [unit, size] of units) {
    if (Math.abs(seconds) >= size) return format.format(Math.round(seconds / size), unit);
  }
  return format.format(Math.round(seconds), "second");
}

/** @returns {string[]} */
function seenBefore() {
  try {
    return JSON.parse(localStorage.getItem(SEEN_KEY) || "[]");
  } catch {
    return [];
  }
}

/** @param {YourGame[]} games */
function remember(games) {
  try {
    localStorage.setItem(SEEN_KEY, JSON.stringify(games.filter((g) => g.your_move).map((g) => g.table.id)));
  } catch { /* private mode: a notification may come twice */ }
}

/**
 * Go to a table: with this browser's seat token, or a token for the player's seat made here
 * (a game begun on another device).
 * @param {string} tableId
 */
export async function openSeat(tableId) {
  const page = `/t/${encodeURIComponent(tableId)}`;
  if (!getToken(tableId)) {
    try {
      const res = await api("POST", `/api/tables/${encodeURIComponent(tableId)}/seat`, {});
      setToken(res.table, res.token);
    } catch (err) {
      toast(errorText(err), "error");
      return;
    }
  }
  location.href = page;
}

/** @param {YourGame} g */
function statusText(g) {
  const s = g.table;
  if (s.status === "waiting") return t("social.games.waiting");
  if (g.your_move) return t("social.games.your_move");
  if (g.turn === null) return t("social.games.in_play");
  return t("social.games.their_move", { name: seatName(s, g.turn) });
}

/** @param {YourGame} g */
function row(g) {
  const s = g.table;
  return h("li.table-row.your-game", {
    dataset: { table: s.id, key: s.id, yourMove: g.your_move ? "1" : "0" },
    class: g.your_move ? "your-move" : "",
  },
  h("div.table-info", null,
    h("strong", null, tableTitle(s), s.private ? h("span.tag", null, t("social.games.private")) : null),
    h("span.muted", null, gameLabel(s)),
    h("span.turn", null, statusText(g),
      // A correspondence game's deadline only: a live clock's is on the table's page.
      g.deadline && s.correspondence ? h("small.deadline", { title: new Date(g.deadline * 1000).toLocaleString(language()) },
        ` · ${t("social.games.deadline", { when: fromNow(g.deadline, Date.now()) })}`) : null)),
  h("div.table-actions", null,
    h("button.primary", { type: "button", onclick: () => openSeat(s.id) },
      g.your_move ? t("social.games.play") : t("social.games.open"))));
}

/** The panel, empty until the first answer (hidden while the player has no game). */
export function yourGamesPanel() {
  return h("section.panel.your-games", { id: "your-games", hidden: true },
    h("h2", null, t("social.games.title")),
    notifyToggle(),
    h("ul.tables", { id: "your-games-list" }));
}

/** Asks for the permission to notify, where the browser can and has not been answered. */
function notifyToggle() {
  const can = typeof Notification !== "undefined" && Notification.permission === "default";
  return h("button.ghost.notify-me", {
    type: "button", id: "notify-me", hidden: !can,
    onclick: async (/** @type {Event} */ e) => {
      const button = /** @type {HTMLButtonElement} */ (e.currentTarget);
      const answer = await Notification.requestPermission();
      button.hidden = true;
      toast(answer === "granted" ? t("social.notify.on") : t("social.notify.off"), "info");
    },
  }, t("social.notify.ask"));
}

/** @param {number} count */
function badge(count) {
  const nav = /** @type {Navigator & {setAppBadge?: (n?: number) => Promise<void>, clearAppBadge?: () => Promise<void>}} */ (navigator);
  if (!nav.setAppBadge || !nav.clearAppBadge) return;
  (count ? nav.setAppBadge(count) : nav.clearAppBadge()).catch(() => { /* not installed */ });
}

/**
 * Tell the player a game is their move: through the service worker where there is one (the
 * installed app shows it even in the background), else from the page.
 * @param {YourGame} g
 */
async function notify(g) {
  if (typeof Notification === "undefined" || Notification.permission !== "granted") return;
  const title = t("social.notify.title");
  const options = { body: t("social.notify.body", { table: tableTitle(g.table) }), tag: `turn-${g.table.id}`,
    data: { url: g.link }, icon: "/static/icons/icon-192.png" };
  const registration = navigator.serviceWorker ? await navigator.serviceWorker.getRegistration() : undefined;
  if (registration) await registration.showNotification(title, options);
  else new Notification(title, options);
}

/**
 * Keep the panel, the title and the badge current: now, every few seconds, and whenever the
 * page is shown again.
 * @param {HTMLElement} panel  from yourGamesPanel()
 */
export function followYourGames(panel) {
  const list = /** @type {HTMLElement} */ (panel.querySelector("#your-games-list"));
  let looks = 0;
  const refresh = async () => {
    /** @type {{games: YourGame[], your_turn: number}} */
    let res;
    try {
      res = await api("GET", "/api/players/me/games");
    } catch {
      return;                           // no player yet, or offline: the next look
    }
    panel.hidden = !res.games.length;
    list.replaceChildren(...res.games.map(row));
    panel.dataset.looks = String(++looks);   // answers drawn so far (tests wait on it)
    document.title = titleWithCount(document.title, res.your_turn);
    badge(res.your_turn);
    const fresh = newlyYourMove(seenBefore(), res.games);
    remember(res.games);
    for (const g of fresh) notify(g).catch(() => { /* refused meanwhile */ });
  };
  refresh();
  // In the background too (browsers slow such timers down): a hidden tab is where a
  // notification is worth most.
  setInterval(refresh, POLL_MS);
  addEventListener("focus", refresh);
  document.addEventListener("visibilitychange", () => { if (document.visibilityState === "visible") refresh(); });
  return refresh;
}
