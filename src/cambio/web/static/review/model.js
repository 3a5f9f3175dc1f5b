// @ts-check
// A game review in the viewer's terms, with no DOM: the labels and their signs, the chart's
// geometry, the better move in words and the places it points at on the table, and how long
// to wait before asking again for a review still being computed. The server computes the
// review (docs/review.md); nothing here judges a move.

/** @typedef {"best" | "good" | "inaccuracy" | "mistake" | "blunder"} Label */
/** @typedef {{action: string, win: number, score: number | null}} Option */
/**
 * @typedef {object} Decision
 * @property {number} step  the move's index in the round's record
 * @property {Label} label
 * @property {number} loss  percentage points of win chance lost against the best
 * @property {number | null} points
 * @property {boolean} exact
 * @property {string[]} slips
 * @property {Option} chosen
 * @property {Option} best
 * @property {Option[]} options
 */
/**
 * @typedef {object} Review
 * @property {"cards" | "board"} game
 * @property {number} seat
 * @property {number | null} accuracy
 * @property {Record<Label, number>} labels
 * @property {number[]} series  the seat's win chance after each of its decisions
 * @property {number[]} costliest  steps, costliest first
 * @property {number} slips
 * @property {Decision[]} decisions
 */

/** The labels from the best to the worst. */
export const LABELS = /** @type {const} */ (["best", "good", "inaccuracy", "mistake", "blunder"]);

/**
 * The sign beside a label, so that a label reads without its colour: the chess
 * annotations for the three bad ones, which every language's players know.
 * @type {Record<Label, string>}
 */
export const SYMBOLS = { best: "★", good: "✓", inaccuracy: "?!", mistake: "?", blunder: "??" };

/**
 * Each decision by its step, so the viewer finds the one made at a frame.
 * @param {Review} review
 * @returns {Map<number, Decision>}
 */
export function decisionsByStep(review) {
  return new Map(review.decisions.map((d) => [d.step, d]));
}

/**
 * The costliest decisions, costliest first (the review lists their steps).
 * @param {Review} review
 * @returns {Decision[]}
 */
export function costliest(review) {
  const by = decisionsByStep(review);
  return review.costliest.map((s) => by.get(s)).filter((d) => d !== undefined);
}

/**
 * @typedef {object} ChartPoint
 * @property {number} x
 * @property {number} y
 * @property {number} step
 * @property {number} win
 * @property {Label} label
 */
/**
 * @typedef {object} Chart
 * @property {number} width
 * @property {number} height
 * @property {ChartPoint[]} points  one per decision, left to right
 * @property {string} path  the line through them (an SVG path)
 * @property {number} even  the y of a 50% chance
 * @property {(step: number) => number} x  where a step is across
 */

/**
 * The win chance over the round as a line: x is the step within the round (so the chart
 * lines up with the slider), y the seat's chance after each of its decisions, 100% at the
 * top. Drawn in a fixed box the SVG scales to its width.
 * @param {Review} review
 * @param {number} lastStep  the round's last frame
 * @param {{width?: number, height?: number, pad?: number}} [size]
 * @returns {Chart}
 */
export function chartGeometry(review, lastStep, size = {}) {
  const width = size.width ?? 320;
  const height = size.height ?? 120;
  const pad = size.pad ?? 8;
  const span = Math.max(1, lastStep);
  /** @param {number} step */
  const x = (step) => round(pad + (Math.max(0, Math.min(span, step)) * (width - 2 * pad)) / span);
  /** @param {number} win */
  const y = (win) => round(pad + (1 - Math.max(0, Math.min(1, win))) * (height - 2 * pad));
  const points = review.decisions.map((d, i) => {
    const win = review.series[i] ?? d.chosen.win;
    return { x: x(d.step), y: y(win), step: d.step, win, label: d.label };
  });
  const path = points.map((p, i) => `${i ? "L" : "M"}${p.x} ${p.y}`).join(" ");
  return { width, height, points, path, even: y(0.5), x };
}

/** @param {number} v */
function round(v) {
  return Math.round(v * 10) / 10;
}

/**
 * @typedef {object} Move
 * @property {string} key  the catalog key of the move's words (review.move.*)
 * @property {Record<string, string | number>} params
 * @property {string[]} slots  the card slots it points at ("seat.index")
 * @property {"pile" | "deck" | "held" | null} place  the pile, the deck or the held card
 * @property {string | null} cell  a dice cell ("b3")
 */

/**
 * A move of the card game or the dice game as words and as places on the table, for the
 * seat that made it. A slot is named with its owner's name and its number from 1.
 * @param {string} action  the record's action ("swap 2", "peek 1.0", "c3>")
 * @param {number} seat
 * @param {string[]} names
 * @returns {Move}
 */
export function describeMove(action, seat, names) {
  const [verb, a = "", b = ""] = action.split(" ");
  /** @param {string} addr */
  const slot = (addr) => {
    const [q, i] = addr.split(".").map(Number);
    return { name: names[q] ?? String(q + 1), slot: i + 1 };
  };
  /** @type {Move} */
  const move = { key: `review.move.${verb}`, params: {}, slots: [], place: null, cell: null };
  switch (verb) {
    case "draw": move.place = "deck"; break;
    case "take": move.place = "pile"; break;
    case "discard": move.place = "held"; break;
    case "swap": case "give":
      move.params = { slot: Number(a) + 1 };
      move.slots = [`${seat}.${a}`];
      break;
    case "peek": case "snap": {
      const s = slot(a);
      move.params = { name: s.name, slot: s.slot };
      move.slots = [a];
      break;
    }
    case "look": case "switch": {
      const s = slot(a);
      const t = slot(b);
      move.params = { name: s.name, slot: s.slot, other: t.name, otherSlot: t.slot };
      move.slots = [a, b];
      break;
    }
    case "cambio": case "keep": case "skip": case "pass": break;
    default: {
      const push = /^([a-h][1-8])([<>^v])$/.exec(action);
      if (push) {
        move.key = "review.move.push";
        move.params = { move: action };
        move.cell = push[1];
      } else {
        move.key = "review.move.other";
        move.params = { move: action };
      }
    }
  }
  return move;
}

/**
 * A percentage for the page: whole numbers, one decimal below 10 (a 0.4-point loss is not
 * "0").
 * @param {number} points
 * @returns {number}
 */
export function shownPoints(points) {
  return points >= 10 ? Math.round(points) : Math.round(points * 10) / 10;
}

/**
 * How long to wait before asking again for a review being computed: the server's
 * Retry-After at first, then half as long again each time, at most a quarter of a minute,
 * so a long queue is not asked every two seconds for minutes.
 * @param {number} attempt  0 for the first wait
 * @param {number} retryAfter  seconds, from the answer's header (2 if it has none)
 * @returns {number} milliseconds
 */
export function pollDelay(attempt, retryAfter) {
  const base = Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : 2;
  return Math.round(Math.min(15, base * 1.5 ** attempt) * 1000);
}

/**
 * The mean accuracy of the games that have one (a game is reviewed after it ends).
 * @param {{accuracy?: number | null}[]} games
 * @returns {{mean: number | null, count: number}}
 */
export function averageAccuracy(games) {
  const known = games.map((g) => g.accuracy).filter((a) => typeof a === "number");
  if (!known.length) return { mean: null, count: 0 };
  const mean = known.reduce((s, a) => s + a, 0) / known.length;
  return { mean: Math.round(mean * 10) / 10, count: known.length };
}

/**
 * A finished game's replay page, opened on a seat's review when the seat is known (the
 * table's own seat: only its player is shown its review).
 * @param {string} tableId
 * @param {number | undefined} gameNo
 * @param {number | null | undefined} seat
 * @returns {string}
 */
export function replayPath(tableId, gameNo, seat) {
  const q = new URLSearchParams();
  if (gameNo !== undefined) q.set("game", String(gameNo));
  if (typeof seat === "number" && Number.isInteger(seat) && seat >= 0) q.set("seat", String(seat));
  const query = q.toString();
  return `/r/${encodeURIComponent(tableId)}${query ? `?${query}` : ""}`;
}
