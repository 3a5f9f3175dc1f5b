// The dice board drawn: the dice with their symbols (SVG), the push arrows round the board,
// the last push, the winning line and a push previewed. Functions of a normalized board
// (model.js) and options; the table (board.js) handles what the arrows report.
import { h } from "../common.js";
import { t } from "../i18n.js";
import { SYMBOLS, cellName, moveLine } from "./model.js";

export const SEAT_COLOURS = ["#1d4ed8", "#c2410c", "#7e22ce"];
const SEAT_FILLS = ["#dbeafe", "#ffedd5", "#f3e8ff"];
const ARROWS = { ">": "→", "<": "←", "^": "↑", v: "↓" };

/** @typedef {import("./model.js").Board} Board */
/** @typedef {Pick<Board, "n" | "owners" | "faces" | "symbols">} Dice  what drawing the dice reads */
/**
 * What the board is drawn with: the moves offered (arrows not in `legal` are disabled), the
 * last push, the winning cells, the setup's dice to tap, the names, the tutorial's outlined
 * moves, a push previewed, and where a tap goes.
 * @typedef {object} GridOptions
 * @property {Set<string>} legal
 * @property {string | null} [last]
 * @property {(number | number[])[]} [win]
 * @property {Map<string, string>} [picks]  cell name -> move
 * @property {string[]} [names]
 * @property {Set<string> | null} [marks]
 * @property {string | null} [preview]
 * @property {(move: string, isPush: boolean) => void} [onMove]
 */

// ---------------------------------------------------------------------- symbols
/** A symbol (by number or name) as an SVG. @param {number | string} sym @param {string} colour @param {string} fill */
export function symbolSvg(sym, colour, fill) {
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("viewBox", "0 0 40 40");
  svg.setAttribute("aria-hidden", "true");
  /** @param {string} tag @param {Record<string, string | number>} attrs */
  const shape = (tag, attrs) => {
    const el = document.createElementNS(ns, tag);
    for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
    el.setAttribute("fill", fill);
    el.setAttribute("stroke", colour);
    el.setAttribute("stroke-width", "4");
    el.setAttribute("stroke-linejoin", "round");
    svg.append(el);
  };
  switch (typeof sym === "number" ? SYMBOLS[sym] || sym : sym) {
    case "circle": shape("circle", { cx: 20, cy: 20, r: 14 }); break;
    case "triangle": shape("polygon", { points: "20,5 36,34 4,34" }); break;
    case "square": shape("rect", { x: 7, y: 7, width: 26, height: 26, rx: 2 }); break;
    case "star": shape("polygon", { points: "20,3 25,15 38,15 27.5,23 31.5,36 20,28 8.5,36 12.5,23 2,15 15,15" }); break;
    case "cross": shape("polygon", { points: "15,4 25,4 25,15 36,15 36,25 25,25 25,36 15,36 15,25 4,25 4,15 15,15" }); break;
    case "diamond": shape("polygon", { points: "20,3 36,20 20,37 4,20" }); break;
    default: shape("circle", { cx: 20, cy: 20, r: 6 });
  }
  return svg;
}

/** @param {Dice} b @param {number} cell @param {{ button?: boolean, names?: string[] }} [opts] */
function dieEl(b, cell, opts = {}) {
  const owner = b.owners[cell];
  const face = b.faces ? b.faces[cell] : (owner >= 0 ? b.symbols[owner] : null);
  const node = document.createElement(opts.button ? "button" : "div");
  if (node instanceof HTMLButtonElement) node.type = "button";
  node.className = "die";
  node.dataset.cell = cellName(cell, b.n);
  const n = b.n;
  const r = Math.floor(cell / n);
  const c = cell % n;
  if ((r === 0 || r === n - 1) && (c === 0 || c === n - 1)) node.classList.add("corner");
  if (owner >= 0) {
    node.classList.add("owned", `seat-${owner}`);
    node.dataset.owner = String(owner);
    node.style.borderColor = SEAT_COLOURS[owner];
    node.style.background = SEAT_FILLS[owner];
    node.append(symbolSvg(face ?? b.symbols[owner], SEAT_COLOURS[owner], SEAT_COLOURS[owner]));
  } else {
    node.classList.add("neutral");
    node.dataset.owner = "-1";
    if (face !== null && face !== undefined) node.append(symbolSvg(face, "#4b5563", "#9ca3af"));
  }
  const who = owner >= 0 ? t("dice.someonesDie", { name: opts.names ? opts.names[owner] : t("common.seat", { no: owner + 1 }) }) : t("dice.neutralDie");
  const sym = face !== null && face !== undefined && SYMBOLS[face] ? t(`symbol.${SYMBOLS[face]}`) : "";
  node.setAttribute("aria-label", `${cellName(cell, n)}: ${who}${sym ? `, ${sym}` : ""}`);
  return node;
}

/** The board with arrows round it; `legal` is a Set of move texts (arrows not in it are disabled).
 * @param {Dice} b @param {GridOptions} opts */
export function boardGrid(b, opts) {
  const n = b.n;
  const grid = h("div.board", { style: `--n:${n}`, role: "grid", "aria-label": t("dice.board") });
  const last = opts.last ? new Set(moveLine(opts.last, n)) : new Set();
  const entered = opts.last ? moveLine(opts.last, n)[0] : -1;
  const win = new Set((opts.win || []).flat());
  const picks = opts.picks || new Map();
  const onMove = opts.onMove;
  // The live board may be another element than `grid` (morph keeps the old one): look up
  // the dice from the arrow under the pointer.
  /** @param {Event} e @param {string} move */
  const line = (e, move) => {
    const board = /** @type {HTMLElement} */ (e.currentTarget).closest(".board");
    return board ? moveLine(move, n).map((c) => board.querySelector(`.die[data-cell="${cellName(c, n)}"]`)) : [];
  };
  /** @param {string} move @param {string} glyph @param {string | number} label */
  const arrow = (move, glyph, label) => {
    const enabled = opts.legal && opts.legal.has(move);
    const btn = h("button.arrow", {
      type: "button", disabled: !enabled, dataset: { move },
      class: [opts.preview === move ? "armed" : "", opts.marks && opts.marks.has(move) ? "hinted" : ""].join(" "),
      "aria-label": t(opts.preview === move ? "dice.pushConfirm" : "dice.push", { move }),
      title: move,
      onclick: enabled && onMove ? () => onMove(move, true) : undefined,
      onmouseenter: enabled ? (/** @type {Event} */ e) => line(e, move).forEach((d) => d && d.classList.add("preview")) : undefined,
      onmouseleave: enabled ? (/** @type {Event} */ e) => line(e, move).forEach((d) => d && d.classList.remove("preview")) : undefined,
    }, h("span.glyph", null, glyph), h("span.coord", null, label));
    return btn;
  };
  const preview = opts.preview ? new Set(moveLine(opts.preview, n)) : new Set();
  const file = (/** @type {number} */ c) => String.fromCharCode(97 + c);
  // Top row: pushes down from the top.
  grid.append(h("span"));
  for (let c = 0; c < n; c++) grid.append(arrow(`${file(c)}${n}v`, ARROWS.v, file(c)));
  grid.append(h("span"));
  for (let i = 0; i < n; i++) {
    const r = n - 1 - i;
    grid.append(arrow(`a${r + 1}>`, ARROWS[">"], r + 1));
    for (let c = 0; c < n; c++) {
      const cell = r * n + c;
      const pick = picks.get(cellName(cell, n));
      const d = dieEl(b, cell, { button: !!pick, names: opts.names });
      if (last.has(cell)) d.classList.add("last");
      if (cell === entered) d.classList.add("entered");
      if (win.has(cell)) d.classList.add("win");
      if (preview.has(cell)) d.classList.add("preview");
      if (pick) {
        d.classList.add("pickable");
        if (onMove) d.onclick = () => onMove(pick, false);
        d.setAttribute("aria-label", `${d.getAttribute("aria-label")} — ${pick}`);
      }
      grid.append(d);
    }
    grid.append(arrow(`${file(n - 1)}${r + 1}<`, ARROWS["<"], r + 1));
  }
  grid.append(h("span"));
  for (let c = 0; c < n; c++) grid.append(arrow(`${file(c)}1^`, ARROWS["^"], file(c)));
  grid.append(h("span"));
  return h("div.board-wrap", { dataset: { key: "board" } }, grid);
}
