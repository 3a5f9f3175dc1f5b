// @ts-check
// The dice game's short guided game: what to do next, and the arrow to push (outlined on
// the board), so a newcomer learns by playing. The tutorial table (server/tutorial.py) is a
// two-player quick setup from a fixed seed against the Random bot, so every newcomer starts
// from the same board. The advice is the engine's (the view's "coach", for the seat to
// move: games/board_coach.py); this module only words it. It imports nothing of board.js
// nor board/, which import it (the cell names are from here).
import { t } from "./i18n.js";

/** A cell's name: its column letter and row number (`c3`). */
/** @param {number} cell @param {number} n */
export function cellName(cell, n) {
  return `${String.fromCharCode(97 + (cell % n))}${Math.floor(cell / n) + 1}`;
}

/** @param {number[]} line @param {number} n */
function lineName(line, n) {
  const [a, b] = [line[0], line[line.length - 1]];
  if (Math.floor(a / n) === Math.floor(b / n)) return t("tutorial.dice.row", { n: Math.floor(a / n) + 1 });
  if (a % n === b % n) return t("tutorial.dice.column", { c: String.fromCharCode(65 + (a % n)) });
  return t("tutorial.dice.diagonal", { a: cellName(a, n), b: cellName(b, n) });
}

/**
 * The tip for the board now: {text, marks} (marks: the moves whose arrows to outline).
 * @param {{ seat: number, preview: string | null, log: { seat?: number }[], name: (s: number) => string }} ui
 * @param {import("./board/model.js").Board} b @param {boolean} mine
 */
export function diceCoach(ui, b, mine) {
  const me = ui.seat;
  const tip = (/** @type {string} */ key, /** @type {Record<string, string | number>} */ params,
    /** @type {string[]} */ ...marks) => ({ text: t(`tutorial.dice.${key}`, params), marks: new Set(marks) });
  const other = ui.name((me + 1) % b.players);
  if (b.over) return tip((b.winners || []).includes(me) ? "won" : "over", {});
  if (!mine) return tip("waiting", { name: other });
  const coarse = matchMedia("(pointer: coarse)").matches;
  if (ui.preview && b.legal.includes(ui.preview)) return tip("armed", {}, ui.preview);
  const pick = b.coach;
  if (!pick) return tip("pass", {});
  const how = t(coarse ? "tutorial.dice.how_touch" : "tutorial.dice.how_click");
  if (!ui.log.some((ev) => ev && ev.seat === me)) {
    return tip("first", { k: b.k, how }, pick.move);
  }
  const where = pick.line ? lineName(pick.line, b.n) : t("tutorial.dice.a_line");
  if (pick.wins) return tip("wins", { line: where, how }, pick.move);
  const threat = pick.threat;
  if (threat.count >= b.k - 1) {
    return tip("block", { name: other, count: threat.count, line: lineName(threat.line, b.n), how }, pick.move);
  }
  return tip("build", { count: pick.count, line: where, how, name: other }, pick.move);
}
