// The dice table's decisions, pure: what a tap on an arrow or a die does (on a touch screen
// a push is tapped twice: the first shows it, the second makes it), which moves the board
// offers, and the status line. The table (board.js) keeps the state and sends.
import { pushWords } from "./model.js";

/** @typedef {import("./model.js").Board} Board */

/**
 * A tap on an arrow (`isPush`) or a die. Returns the push previewed next and the move to
 * send, if any.
 * @param {string | null} preview @param {string} move @param {boolean} isPush
 * @param {boolean} coarse  a touch screen
 * @returns {{ preview: string | null, send: string | null }}
 */
export function tapMove(preview, move, isPush, coarse) {
  if (isPush && coarse && preview !== move) return { preview: move, send: null };
  return { preview: null, send: move };
}

/** Our legal moves, and the setup's dice to tap (cell -> move). @param {Board} b @param {boolean} mine */
export function offered(b, mine) {
  const legal = new Set(mine ? b.legal : []);
  /** @type {Map<string, string>} */
  const picks = new Map();
  for (const a of legal) {
    const m = /^(neutral|own)\s+([a-h][1-8])$/.exec(a);
    if (m) picks.set(m[2], a);
  }
  return { legal, picks };
}

/** The last move, when it was a push. @param {Board} b */
export function lastPush(b) {
  return b.last && /^[a-h][1-8][<>^v]$/.test(b.last) ? b.last : null;
}

/** Whose dice the setup adjusts now. @param {Board} b @returns {number | null} */
export function setupTarget(b) {
  const s = b.setup || {};
  return s.adjusting ?? s.seat ?? b.actor;
}

/**
 * The status line.
 * @param {Board} b
 * @param {{ seat: number | null, mine: boolean, picking: boolean, preview: string | null,
 *   coarse: boolean, name: (seat: number | null) => string }} o
 */
export function boardStatus(b, o) {
  if (b.over) {
    const w = b.winners || [];
    if (!w.length) return `Draw (${String(b.termination || "").replace(/_/g, " ")}).`;
    const names = w.map((s) => o.name(s));
    return `${names.join(" and ")} ${names.length === 1 && names[0] !== "You" ? "wins" : "win"}!`;
  }
  if (b.phase === "setup" || o.picking) {
    if (o.mine && o.picking) {
      const kinds = new Set(b.legal.map((a) => a.split(" ")[0]));
      // Said where the eye is: whose dice you adjust, and what the tap does.
      if (kinds.has("neutral")) return `Setup: you adjust ${o.name(setupTarget(b))}'s dice — tap a highlighted die to turn it neutral (at most two of theirs in a line).`;
      return `Setup: you adjust ${o.name(setupTarget(b))}'s dice — tap a highlighted cell to give them a die there.`;
    }
    return `Setup: ${o.name(b.actor)} is choosing…`;
  }
  if (o.seat === null) return `Watching · ${o.name(b.turn)} to play.`;
  if (o.mine) {
    if (o.preview && b.legal.includes(o.preview)) return `Push ${pushWords(o.preview)}? Tap the arrow again.`;
    return o.coarse
      ? "Your move: tap an arrow to see the push, tap it again to push."
      : "Your move: click an arrow to push a die in.";
  }
  return `${o.name(b.turn)} is thinking…`;
}
