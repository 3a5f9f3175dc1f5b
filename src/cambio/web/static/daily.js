// @ts-check
// The daily deal (/daily): today's card deal and dice setup, the same for everyone and
// played against the same bot, each at a private table of one's own; the day's table of
// results (place, score, accuracy) and, once one's own game of the deal is over, the
// others' replays with their reviews. The server keeps the deal's seed secret and decides
// who sees which replay (docs/server.md, "The daily deal"); this page shows what it sends.
import { api, errorText, h, setToken, toast } from "./common.js";
import { language, t } from "./i18n.js";

/**
 * @typedef {object} Entry
 * @property {string} name
 * @property {string} profile
 * @property {string} status
 * @property {number} [place]
 * @property {boolean} [won]
 * @property {number | null} [score]
 * @property {number | null} [accuracy]
 * @property {string} [table]
 * @property {string} [replay]  only once the caller has played the deal (or their own)
 */
/**
 * @typedef {object} Day
 * @property {string} day
 * @property {"cards" | "board"} game
 * @property {boolean} played
 * @property {Entry | null} mine
 * @property {number} playing
 * @property {Entry[]} results
 */

const GAMES = /** @type {const} */ (["cards", "board"]);
const app = /** @type {HTMLElement} */ (document.getElementById("app"));

/**
 * The replay of a daily game with its seat's review (a daily table's player sits at 0).
 * @param {Entry} e
 * @returns {string | null}
 */
export function replayLink(e) {
  return e.replay ? `${e.replay}${e.replay.includes("?") ? "&" : "?"}seat=0` : null;
}

/**
 * A figure in the page's language (a dash when unknown).
 * @param {number | null | undefined} v
 * @returns {string}
 */
function figure(v) {
  return v === null || v === undefined ? "–" : new Intl.NumberFormat(language()).format(v);
}

/**
 * Start (or go back to) the caller's own table of today's deal.
 * @param {"cards" | "board"} game
 * @param {HTMLButtonElement} button
 */
async function play(game, button) {
  button.disabled = true;
  try {
    await api("POST", "/api/me", {});   // the deal is kept per player: make sure of one
    const res = await api("POST", "/api/daily", { game });
    setToken(res.table, res.token);
    location.href = `/t/${encodeURIComponent(res.table)}`;
  } catch (err) {
    button.disabled = false;
    toast(errorText(err), "error");
  }
}

/**
 * One game's deal: the button to play it, one's own result, the day's table.
 * @param {Day} d
 * @returns {HTMLElement}
 */
function gamePanel(d) {
  const mine = d.mine;
  const finished = mine !== null && mine.status === "finished";
  /** @type {HTMLButtonElement} */
  const button = /** @type {HTMLButtonElement} */ (h("button.primary.big", {
    type: "button", id: `daily-play-${d.game}`,
    onclick: () => play(d.game, button),
  }, t(mine ? "daily.continue" : "daily.play")));
  const own = mine && finished ? h("p", { id: `daily-mine-${d.game}` },
    t("daily.mine", { place: figure(mine.place), score: figure(mine.score), accuracy: figure(mine.accuracy) }), " ",
    replayLink(mine) ? h("a", { href: /** @type {string} */ (replayLink(mine)) }, t("daily.yourReview")) : null) : null;
  const rows = d.results.map((e) => {
    const link = replayLink(e);
    return h("tr", { class: mine && e.table === mine.table ? "mine" : "", dataset: { status: e.status } },
      h("td", null, figure(e.place)),
      h("td", null, h("a", { href: e.profile }, e.name)),
      h("td.score", null, figure(e.score)),
      h("td.accuracy", null, figure(e.accuracy)),
      d.played ? h("td", null, link ? h("a.daily-replay", { href: link }, t("daily.replay")) : null) : null);
  });
  const table = rows.length ? h("div.table-scroll", null, h("table.daily-results", { id: `daily-results-${d.game}` },
    h("thead", null, h("tr", null, h("th", null, t("daily.place")), h("th", null, t("daily.player")),
      h("th", null, t("daily.score")), h("th", null, t("daily.accuracy")), d.played ? h("th", null, t("daily.replayHead")) : null)),
    h("tbody", null, rows)))
    : h("p.muted", null, t("daily.nobody"));
  return h("section.panel", { id: `daily-${d.game}`, dataset: { played: String(d.played) } },
    h("h2", null, t(`daily.title.${d.game}`)),
    h("p.muted", null, t(`daily.about.${d.game}`)),
    h("div.daily-actions", null, finished ? null : button,
      d.playing ? h("span.muted", null, t("daily.playing", { count: d.playing })) : null),
    own, table,
    d.played ? null : h("p.muted.small", null, t("daily.after")));
}

async function main() {
  const title = document.getElementById("title");
  try {
    const days = await Promise.all(GAMES.map((g) => api("GET", `/api/daily?game=${g}`)));
    const day = /** @type {Day} */ (days[0]).day;
    if (title) title.textContent = t("daily.heading", { day });
    document.title = t("daily.heading", { day });
    app.append(h("section.panel", null, h("h1", null, t("daily.heading", { day })), h("p", null, t("daily.intro"))),
      ...days.map((d) => gamePanel(/** @type {Day} */ (d))));
  } catch (err) {
    app.append(h("section.panel", { id: "daily-missing" }, h("h2", null, t("daily.unavailable")),
      h("p.muted", null, errorText(err)), h("a.button.primary", { href: "/" }, t("daily.back"))));
  }
}

main();
