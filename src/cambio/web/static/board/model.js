// The dice board read from the server's view: positions, faces, cells and pushes in the
// engine's notation (rows from the top, x/o/s for seats 0/1/2, digits for runs of neutral
// dice; docs/board-rules.md). Pure functions: no DOM.
import { cellName } from "../tutorial_dice.js";
import { hasKey, t } from "../i18n.js";

export { cellName };

export const SYMBOLS = ["circle", "triangle", "square", "star", "cross", "diamond"];
const SEAT_LETTERS = "xos";

/** @typedef {{ n: number, owners: number[], players: number, turn: number, ply: number }} Position */

/** @typedef {{ seat: number, cells: number[] }} WinLine  a winner's line of dice, by cell */

/**
 * A board view read into one shape (normalize).
 * @typedef {Position & { k: number, faces: number[] | null, symbols: number[], legal: string[],
 *   last: string | null, winners: number[] | null, lines: WinLine[], coach: any, over: boolean,
 *   termination: string | null, phase: string, setup: any, actor: number | null }} Board
 */

// ---------------------------------------------------------------------- geometry
/** The engine's position text ("x3o/5/... o 12"). @param {string} text @param {number} players
 * @returns {Position} */
export function parsePosition(text, players) {
  const [rowsText, turnText, plyText] = text.trim().split(/\s+/);
  const rows = rowsText.split("/");
  const n = rows.length;
  const owners = new Array(n * n).fill(-1);
  rows.forEach((row, i) => {
    const r = n - 1 - i;
    let c = 0;
    for (const ch of row) {
      if (/[0-9]/.test(ch)) c += Number(ch);
      else if (ch === ".") c += 1;
      else {
        owners[r * n + c] = SEAT_LETTERS.indexOf(ch);
        c += 1;
      }
    }
  });
  return {
    n, owners, players,
    turn: turnText ? Math.max(0, SEAT_LETTERS.indexOf(turnText)) : 0,
    ply: plyText ? Number(plyText) : 0,
  };
}

/** Faces as digit rows ("0123/..."), or already a list. @param {string | number[]} text @param {number} n */
export function parseFaces(text, n) {
  if (Array.isArray(text)) return [...text];
  const faces = new Array(n * n).fill(0);
  text.split("/").forEach((row, i) => {
    [...row].forEach((ch, c) => { faces[(n - 1 - i) * n + c] = Number(ch); });
  });
  return faces;
}

/** A cell's index from its name ("c3"). @param {string} text @param {number} n */
export function parseCell(text, n) {
  const c = text.charCodeAt(0) - 97;
  const r = Number(text.slice(1)) - 1;
  return r * n + c;
}

/** The cells of a push from the entry end to the leaving end. @param {string} move @param {number} n */
export function moveLine(move, n) {
  const dir = move[move.length - 1];
  const cell = parseCell(move.slice(0, -1), n);
  const r = Math.floor(cell / n);
  const c = cell % n;
  const out = [];
  for (let i = 0; i < n; i++) {
    if (dir === ">") out.push(r * n + i);
    else if (dir === "<") out.push(r * n + (n - 1 - i));
    else if (dir === "^") out.push(i * n + c);
    else out.push((n - 1 - i) * n + c);
  }
  return out;
}

/** A push in words: "into column D from the top" for `d5v` (the notation stays beside it). */
/** @param {string} m */
export function pushWords(m) {
  const file = m[0].toUpperCase();
  const rank = m.slice(1, -1);
  const key = /** @type {Record<string, string>} */ ({
    ">": "dice.pushLeft", "<": "dice.pushRight", "^": "dice.pushBottom", v: "dice.pushTop",
  })[m[m.length - 1]] ?? "";
  return t(key, { rank, file });
}

/** A symbol by number or name, as its number. @param {unknown} s */
function symbolIndex(s) {
  if (typeof s === "number") return s;
  const i = SYMBOLS.indexOf(String(s));
  return i >= 0 ? i : 0;
}

// ---------------------------------------------------------------------- live view
/**
 * Read the server's board view (docs/protocol.md, "Board views") into one shape:
 * {n, k, players, owners, faces, symbols, turn, legal, last, winners, over, phase, setup}.
 * @param {any} view @returns {Board}
 */
export function normalize(view) {
  const players = view.players;
  const pos = parsePosition(view.position, players);
  /** @type {number[]} */
  const symbols = (view.symbols || []).map(symbolIndex);
  while (symbols.length < players) symbols.push(symbols.length);
  return {
    ...pos,
    players,
    turn: view.turn,
    k: view.rules.line,
    faces: view.faces ? parseFaces(view.faces, pos.n) : null,
    symbols,
    legal: view.legal,
    last: view.last,
    winners: view.winners,
    lines: view.lines || [],      // the engine's: each winner's full windows
    coach: view.coach || null,    // the engine's advice to the seat to move (tutorial_dice.js)
    over: view.phase === "over",
    termination: view.outcome ? view.outcome.termination : null,
    phase: view.phase,
    setup: view.setup,
    actor: view.actor,
  };
}

/** Why a game ended, in words ("the same position three times"): the engine's termination
 * (`line`, `repetition`, `move_cap`, `no_moves`). @param {string | null | undefined} termination */
export function endWhy(termination) {
  const key = `dice.why.${termination}`;
  return hasKey(key) ? t(key) : t("error.failed");
}
