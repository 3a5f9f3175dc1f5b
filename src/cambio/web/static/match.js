// Match flow on the card table: the match-over screen (the match winner, every round's scores,
// a chart of the running totals, the table's earlier matches and wins) and the countdown to
// the next round. Everything comes from the table summary (`result`, `history`, `wins`,
// `next_round`; protocol 2): the page computes no score itself.
import { h, seatName } from "./common.js";
import { t } from "./i18n.js";

const SVG = "http://www.w3.org/2000/svg";
const COLOURS = ["#1f77b4", "#d9480f", "#2b8a3e", "#c2255c", "#7048e8", "#8c564b", "#0b7285", "#5c5f66"];
// Distinct on the light results panel (matplotlib's tab10, darkened where it was pale).

/** @type {ReturnType<typeof setInterval> | null} */
let ticker = null;

/** "Next round in 4 s", counting down by itself (see tick()).
 * @param {any} summary */
export function nextRoundNote(summary) {
  // One ticker for the page, started by the first countdown (importing this module starts none).
  ticker = ticker || setInterval(tick, 250);
  const left = summary && typeof summary.next_round === "number" ? summary.next_round : null;
  if (left === null) return h("p.muted", null, t("match.nextSoon"));
  const until = performance.now() + left * 1000;
  return h("p.next-round", { id: "next-round", dataset: { until: String(until), key: "next-round" } },
    countdownText(until));
}

/** @param {number} until */
function countdownText(until) {
  const s = Math.max(0, Math.ceil((until - performance.now()) / 1000));
  return s > 0 ? t("match.nextIn", { count: s }) : t("match.dealing");
}

function tick() {
  for (const el of document.querySelectorAll(/** @type {"p"} */ (".next-round[data-until]"))) {
    const text = countdownText(Number(el.dataset.until));
    if (el.textContent !== text) el.textContent = text;
  }
}

/** @param {any} summary @param {number | null} seat */
function names(summary, seat) {
  return (/** @type {number} */ s) => (s === seat ? t("results.you", { name: seatName(summary, s) }) : seatName(summary, s));
}

/** @param {any} summary @param {number[]} winners @param {number | null} seat */
function winnersText(summary, winners, seat) {
  if (winners.length === 1 && winners[0] === seat) return t("match.youWin");
  const who = winners.map((/** @type {number} */ s) => (s === seat ? t("common.you") : seatName(summary, s)));
  return t("match.winners", { count: who.length, names: who.join(t("common.and")) });
}

/** The match-over screen of a finished card match of several rounds (null while it goes on).
 * @param {any} summary @param {number | null} seat */
export function matchOver(summary, seat) {
  const result = summary && summary.result;
  if (!result || !Array.isArray(result.winners) || summary.status !== "finished"
    || !(summary.rounds > 1)) return null;
  const n = summary.players;
  const seats = Array.from({ length: n }, (_, s) => s);
  const name = names(summary, seat);
  /** @type {number[][]} */
  const rounds = result.scores || [];
  const box = h("section.match-over", { id: "match-over", "aria-label": t("match.over"), dataset: { key: "match-over" } },
    h("h2", null, `${t("match.over")}: ${winnersText(summary, result.winners, seat)}`),
    h("div.match-scroll", null,
      h("table.scores.match-scores", { id: "match-scores" },
        h("thead", null, h("tr", null, h("th", null, t("results.round")), seats.map((s) => h("th", { scope: "col" }, name(s))))),
        h("tbody", null, rounds.map((row, k) => h("tr", { dataset: { round: String(k + 1) } },
          h("th", { scope: "row" }, String(k + 1)),
          row.map((v) => h("td", null, String(v)))))),
        h("tfoot", null, h("tr.total", null, h("th", { scope: "row" }, t("results.total")),
          (result.totals || []).map((/** @type {number} */ v, /** @type {number} */ s) => h("td", { class: result.winners.includes(s) ? "win" : "" }, String(v))))))),
    rounds.length > 1 ? scoreChart(summary, rounds, name) : null);
  return box;
}

/** The table's earlier games and every seat's wins (after a rematch; null before).
 * @param {any} summary @param {number | null} seat */
export function tableHistory(summary, seat) {
  /** @type {{ game_no: number, totals?: number[], winners?: number[] }[]} */
  const past = Array.isArray(summary.history) ? summary.history : [];
  if (!past.length) return null;
  const name = names(summary, seat);
  /** @type {number[]} */
  const wins = summary.wins || [];
  return h("div.match-history", { id: "match-history" },
    h("h3", null, t("match.earlier")),
    h("p.wins", null, wins.map((w, s) => `${name(s)}: ${t("match.wins", { count: w })}`).join(" · ")),
    h("ol.past-matches", null, past.map((g) => h("li", { dataset: { game: String(g.game_no) } },
      `${t(summary.rounds > 1 ? "match.match" : "match.game", { no: g.game_no })}: `,
      (g.totals || []).map((total, s) => `${seatName(summary, s)} ${total}`).join(", "),
      Array.isArray(g.winners) ? ` — ${t("match.won", { count: g.winners.length, names: g.winners.map((s) => seatName(summary, s)).join(t("common.and")) })}` : ""))));
}

/** Running totals after each round, one line per seat (an inline SVG, no library).
 * @param {any} _summary @param {number[][]} rounds @param {(s: number) => string} name */
function scoreChart(_summary, rounds, name) {
  const n = rounds[0].length;
  const running = Array.from({ length: n }, () => [0]);
  for (const row of rounds) row.forEach((v, s) => running[s].push(running[s][running[s].length - 1] + v));
  const W = 320, H = 160, P = 30;
  const max = Math.max(1, ...running.flat());
  const min = Math.min(0, ...running.flat());
  const x = (/** @type {number} */ k) => P + (k * (W - 2 * P)) / rounds.length;
  const y = (/** @type {number} */ v) => H - P - ((v - min) * (H - 2 * P)) / (max - min);
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
  svg.setAttribute("class", "score-chart");
  svg.setAttribute("id", "score-chart");
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", t("match.chart"));
  /** @param {string} tag @param {Record<string, string | number>} attrs @param {string} [text] */
  const add = (tag, attrs, text) => {
    const el = document.createElementNS(SVG, tag);
    for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
    if (text !== undefined) el.textContent = text;
    svg.append(el);
    return el;
  };
  add("line", { x1: P, y1: y(min), x2: W - P, y2: y(min), class: "axis" });
  add("line", { x1: P, y1: P / 2, x2: P, y2: H - P, class: "axis" });
  for (let k = 0; k <= rounds.length; k += 1) add("text", { x: x(k), y: H - P + 14, class: "tick" }, String(k));
  add("text", { x: P - 4, y: y(max) + 4, class: "tick max" }, String(max));
  running.forEach((pts, s) => {
    add("polyline", {
      points: pts.map((v, k) => `${x(k).toFixed(1)},${y(v).toFixed(1)}`).join(" "),
      stroke: COLOURS[s % COLOURS.length], class: "series", "data-seat": s,
    });
  });
  const legend = h("ul.chart-legend", null, running.map((_, s) => h("li", null,
    h("span.swatch", { style: `background:${COLOURS[s % COLOURS.length]}` }), name(s))));
  return h("figure.chart", { dataset: { key: "chart" } }, svg, legend);
}
