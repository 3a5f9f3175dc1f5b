// A player's profile (/p/{name}): ratings with their uncertainty, a small chart of each
// rating over time, totals by game, and every game with a link to its replay.
import { api, h, setToken, toast } from "./common.js";
import { profileActions, standingPanel } from "./social.js";
import { followYourGames, yourGamesPanel } from "./yourgames.js";

const app = document.getElementById("app");
const name = decodeURIComponent(location.pathname.split("/").filter(Boolean)[1] || "");
const GAME = { cards: "Cards", board: "Dice board" };
const CLASS = { "cards-2": "Cards, heads-up", "cards-multi": "Cards, 3+ players", "dice-2": "Dice, 2 players", "dice-3": "Dice, 3 players" };
const SVG = "http://www.w3.org/2000/svg";

function svg(tag, attrs, ...children) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, String(v));
  for (const c of children) node.append(c);
  return node;
}

/** The rating after each rated game, as a line (inline SVG, no library). */
function chart(points) {
  const w = 320, hgt = 90, pad = 6;
  const values = points.map((p) => p.rating);
  const lo = Math.min(...values, 0), hi = Math.max(...values, 1);
  const x = (i) => pad + (points.length < 2 ? (w - 2 * pad) / 2 : (i * (w - 2 * pad)) / (points.length - 1));
  const y = (v) => hgt - pad - ((v - lo) * (hgt - 2 * pad)) / (hi - lo || 1);
  const line = points.map((p, i) => `${x(i).toFixed(1)},${y(p.rating).toFixed(1)}`).join(" ");
  return svg("svg", { class: "rating-chart", viewBox: `0 0 ${w} ${hgt}`, width: w, height: hgt, role: "img", "aria-label": `rating from ${values[0]} to ${values[values.length - 1]}` },
    svg("line", { x1: pad, x2: w - pad, y1: y(0), y2: y(0), class: "axis" }),
    svg("polyline", { points: line, class: "line" }),
    ...points.map((p, i) => svg("circle", { cx: x(i), cy: y(p.rating), r: 2.5 }, svg("title", {}, `${p.date.slice(0, 10)}: ${p.rating}`))));
}

function ratingsPanel(profile) {
  const classes = Object.keys(profile.ratings);
  if (!classes.length) return h("section.panel", { id: "ratings" }, h("h2", null, "Ratings"), h("p.muted", null, "No rated game yet: Play now from the lobby."));
  return h("section.panel", { id: "ratings" }, h("h2", null, "Ratings"),
    h("p.muted", null, "The rating shown is μ − 3σ: it rises as games make the uncertainty (σ) smaller."),
    h("div.rating-cards", null, classes.map((c) => {
      const r = profile.ratings[c];
      const history = (profile.history || {})[c] || [];
      return h("div.rating-card", { dataset: { class: c } },
        h("h3", null, CLASS[c] || c),
        // A first rating is μ − 3σ with σ still wide (often below zero): say it is provisional
        // rather than lead with a bare "−1.7".
        h("p.rating-figure", null, r.provisional ? h("span.provisional", null, "Provisional: ") : null,
          h("strong", { class: "rating" }, String(r.rating)), ` ± ${Number(r.uncertainty).toFixed(1)}`),
        h("p.muted", null, r.fixed ? "fixed (measured strength)"
          : `${r.games} rated game${r.games === 1 ? "" : "s"}, ${r.opponents} opponent${r.opponents === 1 ? "" : "s"}${r.provisional ? " · provisional" : ""}`),
        history.length > 1 ? chart(history) : null);   // one point is no curve
    })));
}

function resultText(g) {
  if (g.status === "playing") return "in play";
  if (g.forfeit) return "left (a loss)";
  const seats = g.players.length;
  return g.won ? "won" : `place ${g.place} of ${seats}`;
}

/** A rated table's game that did not count says why (a seat nobody played, ...). */
function ratingText(g) {
  if (g.rated) return g.rating !== null && g.rating !== undefined ? String(g.rating) : "rated";
  return g.void ? h("span.void", { title: g.void }, `not rated: ${g.void}`) : "casual";
}

function gamesPanel(profile) {
  const rows = [...(profile.playing || []), ...profile.games];
  return h("section.panel", { id: "games" }, h("h2", null, "Games"),
    rows.length ? h("table.games", null,
      h("thead", null, h("tr", null, ["Date", "Game", "Rules", "Players", "Result", "Rating", ""].map((t) => h("th", null, t)))),
      h("tbody", null, rows.map((g) => h("tr", { dataset: { table: g.table, status: g.status } },
        h("td", null, g.date.slice(0, 16).replace("T", " ")),
        h("td", null, GAME[g.game] || g.game),
        h("td", null, g.rules || ""),
        h("td", null, Array.isArray(g.players)
          ? g.players.map((p, i) => [i ? ", " : "", p.player ? h("a", { href: `/p/${encodeURIComponent(p.player)}` }, p.name) : p.name])
          : `${g.players} seats`),
        h("td.result", null, resultText(g)),
        h("td", null, ratingText(g)),
        h("td", null, h("a.replay", { href: g.replay }, g.status === "playing" ? "your view" : "replay"),
          g.table_page ? [" · ", h("a.take-seat", { href: g.table_page, onclick: (e) => takeSeat(e, g) }, "your seat")] : null)))))
      : h("p.muted", null, "No game yet."));
}

/** A game in play, from any device of this player: a seat token for this browser first. */
async function takeSeat(event, g) {
  event.preventDefault();
  try {
    const res = await api("POST", `/api/tables/${encodeURIComponent(g.table)}/seat`, {});
    setToken(res.table, res.token);
    location.href = g.table_page;
  } catch (err) {
    toast(err.message, "error");
  }
}

function totalsPanel(profile) {
  const games = Object.entries(profile.totals);
  return h("section.panel", { id: "totals" }, h("h2", null, "Totals"),
    games.length ? h("ul", null, games.map(([g, t]) => h("li", null, `${GAME[g] || g}: ${t.games} played, ${t.won} won`)))
      : h("p.muted", null, "Nothing yet."));
}

async function main() {
  try {
    const profile = await api("GET", `/api/players/${encodeURIComponent(name)}`);
    const p = profile.player;
    document.getElementById("title").textContent = p.name;
    document.title = `${p.name} · Cambio`;
    app.append(h("section.panel.profile-head", null,
      h("h1", { id: "profile-name" }, p.name),
      h("p.muted", null, profile.bot ? `A bot: ${profile.measured || ""}` : p.username ? `@${p.username}` : "a guest player"),
      h("p", null, h("a", { href: "/leaderboard" }, "Leaderboard"), " · ", h("a", { href: "/" }, "Lobby"))),
    ratingsPanel(profile), totalsPanel(profile), gamesPanel(profile));
    social(profile);
  } catch (err) {
    app.append(h("section.panel", { id: "profile-missing" }, h("h2", null, err.status === 404 ? "No such player" : "Unavailable"),
      h("p.muted", null, err.message), h("a.button.primary", { href: "/" }, "Back to the lobby")));
  }
}

/** One's own profile lists one's games (their move first) and one's standing with the
 * operators; another's offers follow, mute, block and report (social.js). */
async function social(profile) {
  if (profile.bot) return;
  let me;
  try { me = (await api("GET", "/api/me")).player; } catch { return; }
  if (me && me.id === profile.player.id) {
    const games = yourGamesPanel();
    document.querySelector(".profile-head").after(games);
    followYourGames(games);
    const standing = await standingPanel();
    if (standing) games.after(standing);
    return;
  }
  const actions = await profileActions(profile.player, me && me.id);
  if (actions) document.querySelector(".profile-head").append(actions);
}

main();
