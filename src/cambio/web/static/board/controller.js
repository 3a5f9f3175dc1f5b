// The dice table's decisions, pure: what a tap on an arrow or a die does (on a touch screen
// a push is tapped twice: the first shows it, the second makes it), which moves the board
// offers, and the status line. The table (board.js) keeps the state and sends.
import { endWhy, pushWords } from "./model.js";
import { t } from "../i18n.js";

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
    if (!w.length) return t("dice.draw", { why: endWhy(b.termination) });
    if (w.length === 1 && w[0] === o.seat) return t("dice.youWin");
    return t("dice.winners", { count: w.length, names: w.map((s) => o.name(s)).join(t("common.and")) });
  }
  if (b.phase === "setup" || o.picking) {
    if (o.mine && o.picking) {
      const kinds = new Set(b.legal.map((a) => a.split(" ")[0]));
      // Said where the eye is: whose dice you adjust, and what the tap does.
      if (kinds.has("neutral")) return t("dice.setupNeutral", { name: o.name(setupTarget(b)) });
      return t("dice.setupGive", { name: o.name(setupTarget(b)) });
    }
    return t("dice.setupChoosing", { name: o.name(b.actor) });
  }
  if (o.seat === null) return t("status.watchingTurn", { who: o.name(b.turn) });
  if (o.mine) {
    if (o.preview && b.legal.includes(o.preview)) return t("dice.confirmPush", { push: pushWords(o.preview) });
    return o.coarse
      ? t("dice.yourMoveTouch")
      : t("dice.yourMove");
  }
  return t("dice.thinking", { name: o.name(b.turn) });
}
