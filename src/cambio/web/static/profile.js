// A player's profile (/p/{name}): ratings with their uncertainty, a small chart of each
// rating over time, totals by game, and every game with a link to its replay.
import { api, botName, botStrength, byId, errorText, h, playerName, setToken, toast } from "./common.js";
import { formatDate, hasKey, t } from "./i18n.js";
import { averageAccuracy } from "./review/model.js";
import { profileActions, standingPanel } from "./social.js";
import { followYourGames, yourGamesPanel } from "./yourgames.js";

/**
 * GET /api/players/{name} (server/players_api.py): the player, ratings by class with their
 * history, totals by game, games in play and played. Read as the server's JSON.
 * @typedef {any} Profile
 */
/** A row of the profile's games (the same JSON). @typedef {any} GameRow */
/** @typedef {{ rating: number, date: string }} RatingPoint */

const app = byId("app");
const name = decodeURIComponent(location.pathname.split("/").filter(Boolean)[1] || "");
/** @type {Record<string, string>} */
const GAME = { cards: t("game.cards"), board: t("game.board") };
/** @type {Record<string, string>} */
const CLASS = Object.fromEntries(["cards-2", "cards-multi", "dice-2", "dice-3"].map((c) => [c, t(`leaderboard.class.${c}`)]));
const SVG = "http://www.w3.org/2000/svg";

/** @param {string} tag @param {Record<string, string | number>} [attrs] @param {...(Node | string)} children */
function svg(tag, attrs, ...children) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, String(v));
  for (const c of children) node.append(c);
  return node;
}

/** The rating after each rated game, as a line (inline SVG, no library). @param {RatingPoint[]} points */
function chart(points) {
  const w = 320, hgt = 90, pad = 6;
  const values = points.map((p) => p.rating);
  const lo = Math.min(...values, 0), hi = Math.max(...values, 1);
  const x = (/** @type {number} */ i) => pad + (points.length < 2 ? (w - 2 * pad) / 2 : (i * (w - 2 * pad)) / (points.length - 1));
  const y = (/** @type {number} */ v) => hgt - pad - ((v - lo) * (hgt - 2 * pad)) / (hi - lo || 1);
  const line = points.map((p, i) => `${x(i).toFixed(1)},${y(p.rating).toFixed(1)}`).join(" ");
  return svg("svg", { class: "rating-chart", viewBox: `0 0 ${w} ${hgt}`, width: w, height: hgt, role: "img", "aria-label": t("profile.chart", { from: values[0], to: values[values.length - 1] }) },
    svg("line", { x1: pad, x2: w - pad, y1: y(0), y2: y(0), class: "axis" }),
    svg("polyline", { points: line, class: "line" }),
    ...points.map((p, i) => svg("circle", { cx: x(i), cy: y(p.rating), r: 2.5 }, svg("title", {}, `${formatDate(p.date, { dateStyle: "medium" })}: ${p.rating}`))));
}

/** @param {Profile} profile */
function ratingsPanel(profile) {
  const classes = Object.keys(profile.ratings);
  if (!classes.length) return h("section.panel", { id: "ratings" }, h("h2", null, t("profile.ratings")), h("p.muted", null, t("profile.noRated")));
  return h("section.panel", { id: "ratings" }, h("h2", null, t("profile.ratings")),
    h("p.muted", null, t("profile.ratingHelp")),
    h("div.rating-cards", null, classes.map((c) => {
      const r = profile.ratings[c];
      const history = (profile.history || {})[c] || [];
      return h("div.rating-card", { dataset: { class: c } },
        h("h3", null, CLASS[c] || c),
        // A first rating is μ − 3σ with σ still wide (often below zero): say it is provisional
        // rather than lead with a bare "−1.7".
        h("p.rating-figure", null, r.provisional ? h("span.provisional", null, `${t("profile.provisional")}: `) : null,
          h("strong", { class: "rating" }, String(r.rating)), ` ± ${Number(r.uncertainty).toFixed(1)}`),
        h("p.muted", null, r.fixed ? t("profile.fixed")
          : `${t("profile.ratedGames", { count: r.games })}, ${t("profile.opponents", { count: r.opponents })}${r.provisional ? ` · ${t("profile.provisionalLower")}` : ""}`),
        history.length > 1 ? chart(history) : null);   // one point is no curve
    })));
}

/** @param {GameRow} g */
function resultText(g) {
  if (g.status === "playing") return t("lobby.inPlay");
  if (g.forfeit) return t("profile.left");
  const seats = g.players.length;
  return g.won ? t("profile.won") : t("profile.place", { place: g.place, seats });
}

/** A rated table's game that did not count says why (a seat nobody played, ...). */
/** @param {GameRow} g */
function ratingText(g) {
  if (g.rated) return g.rating !== null && g.rating !== undefined ? String(g.rating) : t("profile.rated");
  if (!g.void) return t("profile.casual");
  // The reason's code, in the reader's words (`void` is the English kept with the result).
  const why = g.void_code && hasKey(`unrated.${g.void_code}`) ? t(`unrated.${g.void_code}`) : null;
  return why ? h("span.void", { title: why }, t("profile.notRated", { why })) : t("profile.unrated");
}

/** @param {Profile} profile @param {boolean} reviews  whether this visitor may see the seats' reviews */
function gamesPanel(profile, reviews) {
  const rows = [...(profile.playing || []), ...profile.games];
  return h("section.panel", { id: "games" }, h("h2", null, t("leaderboard.games")),
    averageLine(profile.games),
    rows.length ? h("table.games", null,
      h("thead", null, h("tr", null, [t("profile.date"), t("now.game"), t("lobby.rules"), t("lobby.players"), t("profile.result"), t("leaderboard.rating"), t("review.accuracyHead"), ""].map((head) => h("th", null, head)))),
      h("tbody", null, rows.map((/** @type {GameRow} */ g) => h("tr", { dataset: { table: g.table, status: g.status } },
        h("td", null, formatDate(g.date)),
        h("td", null, GAME[g.game] || g.game),
        h("td", null, g.rules || ""),
        h("td", null, Array.isArray(g.players)
          ? g.players.map((/** @type {{ player?: string, name: string }} */ p, /** @type {number} */ i) => [i ? ", " : "", p.player ? h("a", { href: `/p/${encodeURIComponent(p.player)}` }, playerName(p)) : p.name])
          : t("profile.seats", { count: g.players })),
        h("td.result", null, resultText(g)),
        h("td", null, ratingText(g)),
        h("td.accuracy", null, accuracyText(g)),
        h("td", null, h("a.replay", { href: reviews ? replayHref(g) : g.replay }, g.status === "playing" ? t("profile.yourView") : t("profile.replay")),
          g.table_page ? [" · ", h("a.take-seat", { href: g.table_page, onclick: (/** @type {Event} */ e) => takeSeat(e, g) }, t("profile.yourSeat"))] : null)))))
      : h("p.muted", null, t("profile.noGame")));
}

/** A finished game's accuracy (its seat's review), once the server has made it. @param {GameRow} g */
function accuracyText(g) {
  return typeof g.accuracy === "number" ? t("review.accuracyValue", { accuracy: g.accuracy }) : "–";
}

/** The mean accuracy over the games reviewed so far. @param {GameRow[]} games */
function averageLine(games) {
  const { mean, count } = averageAccuracy(games);
  return mean === null ? null
    : h("p", { id: "accuracy-average" }, t("review.average", { accuracy: mean, count }));
}

/** A finished game's replay opens on its seat's review: offered on one's own profile and
 * on a bot's, the seats the server shows to this visitor. @param {GameRow} g */
function replayHref(g) {
  return g.status === "finished" && Number.isInteger(g.seat) ? `${g.replay}&seat=${g.seat}` : g.replay;
}

/** A game in play, from any device of this player: a seat token for this browser first.
 * @param {Event} event @param {GameRow} g */
async function takeSeat(event, g) {
  event.preventDefault();
  try {
    const res = await api("POST", `/api/tables/${encodeURIComponent(g.table)}/seat`, {});
    setToken(res.table, res.token);
    location.href = g.table_page;
  } catch (err) {
    toast(errorText(err), "error");
  }
}

/** @param {Profile} profile */
function totalsPanel(profile) {
  /** @type {[string, { games: number, won: number }][]} */
  const games = Object.entries(profile.totals);
  return h("section.panel", { id: "totals" }, h("h2", null, t("profile.totals")),
    games.length ? h("ul", null, games.map(([g, tot]) => h("li", null, `${GAME[g] || g}: ${t("profile.played", { count: tot.games })}, ${t("profile.wonCount", { count: tot.won })}`)))
      : h("p.muted", null, t("profile.nothing")));
}

async function main() {
  try {
    const [profile, me] = await Promise.all([
      api("GET", `/api/players/${encodeURIComponent(name)}`),
      api("GET", "/api/me").catch(() => ({ player: null })),
    ]);
    const p = profile.player;
    const reviews = profile.bot || (me.player !== null && me.player.id === p.id);
    // A bot's profile id is "bot:<name>": its name in the reader's language.
    const shown = (profile.bot && botName(String(p.id).replace(/^bot:/, ""))) || p.name;
    byId("title").textContent = shown;
    document.title = `${shown} · Cambio`;
    app.append(h("section.panel.profile-head", null,
      h("h1", { id: "profile-name" }, shown),
      h("p.muted", null, profile.bot ? botStrength(profile.strength) : p.username ? `@${p.username}` : t("profile.guest")),
      h("p", null, h("a", { href: "/leaderboard" }, t("account.leaderboard")), " · ", h("a", { href: "/" }, t("profile.lobby")))),
    ratingsPanel(profile), totalsPanel(profile), gamesPanel(profile, reviews));
    social(profile);
  } catch (e) {
    const err = /** @type {import("./common.js").ApiError} */ (e);
    app.append(h("section.panel", { id: "profile-missing" }, h("h2", null, err.status === 404 ? t("profile.noSuch") : t("profile.unavailable")),
      h("p.muted", null, errorText(err)), h("a.button.primary", { href: "/" }, t("common.backToLobby"))));
  }
}

/** One's own profile lists one's games (their move first) and one's standing with the
 * operators; another's offers follow, mute, block and report (social.js).
 * @param {Profile} profile */
async function social(profile) {
  if (profile.bot) return;
  let me;
  try { me = (await api("GET", "/api/me")).player; } catch { return; }
  if (me && me.id === profile.player.id) {
    const games = yourGamesPanel();
    document.querySelector(".profile-head")?.after(games);
    followYourGames(games);
    const standing = await standingPanel();
    if (standing) games.after(standing);
    return;
  }
  const actions = await profileActions(profile.player, me && me.id);
  if (actions) document.querySelector(".profile-head")?.append(actions);
}

main();
