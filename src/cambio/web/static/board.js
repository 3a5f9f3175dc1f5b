// The dice board game: the 5×5 dice with their symbols, push arrows, the setup, the result.
//
// Positions are the engine's strings (rows from the top, x/o/s for seats 0/1/2, digits for
// runs of neutral dice); faces are digit rows (symbol numbers, docs/board-rules.md). The
// client sends only move texts from view.legal ("a3>", "c5v", "pass", "neutral c3", …).
import { clear, h, morphChildren, seatName } from "./common.js";
import { GameView } from "./gameview.js";
import { playBoardCues } from "./sound.js";
import { coachLine, guiding, skipTutorial } from "./tutorial.js";
import { cellName, diceCoach } from "./tutorial_dice.js";

export const SYMBOLS = ["circle", "triangle", "square", "star", "cross", "diamond"];
const SEAT_COLOURS = ["#1d4ed8", "#c2410c", "#7e22ce"];
const SEAT_FILLS = ["#dbeafe", "#ffedd5", "#f3e8ff"];
const SEAT_LETTERS = "xos";
const ARROWS = { ">": "→", "<": "←", "^": "↑", v: "↓" };

// ---------------------------------------------------------------------- geometry
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

export function parseFaces(text, n) {
  if (Array.isArray(text)) return [...text];
  const faces = new Array(n * n).fill(0);
  text.split("/").forEach((row, i) => {
    [...row].forEach((ch, c) => { faces[(n - 1 - i) * n + c] = Number(ch); });
  });
  return faces;
}

export { cellName };

export function parseCell(text, n) {
  const c = text.charCodeAt(0) - 97;
  const r = Number(text.slice(1)) - 1;
  return r * n + c;
}

/** The cells of a push from the entry end to the leaving end. */
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
export function pushWords(m) {
  const file = m[0].toUpperCase();
  const rank = m.slice(1, -1);
  return {
    ">": `into row ${rank} from the left`, "<": `into row ${rank} from the right`,
    "^": `into column ${file} from the bottom`, v: `into column ${file} from the top`,
  }[m[m.length - 1]];
}

// ---------------------------------------------------------------------- symbols
export function symbolSvg(sym, colour, fill) {
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("viewBox", "0 0 40 40");
  svg.setAttribute("aria-hidden", "true");
  const shape = (tag, attrs) => {
    const el = document.createElementNS(ns, tag);
    for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
    el.setAttribute("fill", fill);
    el.setAttribute("stroke", colour);
    el.setAttribute("stroke-width", "4");
    el.setAttribute("stroke-linejoin", "round");
    svg.append(el);
  };
  switch (SYMBOLS[sym] || sym) {
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

function symbolIndex(s) {
  if (typeof s === "number") return s;
  const i = SYMBOLS.indexOf(String(s));
  return i >= 0 ? i : 0;
}

function dieEl(b, cell, opts = {}) {
  const owner = b.owners[cell];
  const face = b.faces ? b.faces[cell] : (owner >= 0 ? b.symbols[owner] : null);
  const node = document.createElement(opts.button ? "button" : "div");
  if (opts.button) node.type = "button";
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
  const who = owner >= 0 ? `${opts.names ? opts.names[owner] : `seat ${owner + 1}`}'s die` : "neutral die";
  const sym = face !== null && face !== undefined ? SYMBOLS[face] || "" : "";
  node.setAttribute("aria-label", `${cellName(cell, n)}: ${who}${sym ? `, ${sym}` : ""}`);
  return node;
}

/** The board with arrows round it; `legal` is a Set of move texts (arrows not in it are disabled). */
function boardGrid(b, opts) {
  const n = b.n;
  const grid = h("div.board", { style: `--n:${n}`, role: "grid", "aria-label": "Board" });
  const last = opts.last ? new Set(moveLine(opts.last, n)) : new Set();
  const entered = opts.last ? moveLine(opts.last, n)[0] : -1;
  const win = new Set((opts.win || []).flat());
  const picks = opts.picks || new Map();
  // The live board may be another element than `grid` (morph keeps the old one): look up
  // the dice from the arrow under the pointer.
  const line = (e, move) => {
    const board = e.currentTarget.closest(".board");
    return board ? moveLine(move, n).map((c) => board.querySelector(`.die[data-cell="${cellName(c, n)}"]`)) : [];
  };
  const arrow = (move, glyph, label) => {
    const enabled = opts.legal && opts.legal.has(move);
    const btn = h("button.arrow", {
      type: "button", disabled: !enabled, dataset: { move },
      class: [opts.preview === move ? "armed" : "", opts.marks && opts.marks.has(move) ? "hinted" : ""].join(" "),
      "aria-label": `Push ${move}${opts.preview === move ? " (tap again to confirm)" : ""}`,
      title: move,
      onclick: enabled && opts.onMove ? () => opts.onMove(move, true) : undefined,
      onmouseenter: enabled ? (e) => line(e, move).forEach((d) => d && d.classList.add("preview")) : undefined,
      onmouseleave: enabled ? (e) => line(e, move).forEach((d) => d && d.classList.remove("preview")) : undefined,
    }, h("span.glyph", null, glyph), h("span.coord", null, label));
    return btn;
  };
  const preview = opts.preview ? new Set(moveLine(opts.preview, n)) : new Set();
  const file = (c) => String.fromCharCode(97 + c);
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
        d.onclick = () => opts.onMove(pick, false);
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

// ---------------------------------------------------------------------- live view
/**
 * Read the server's board view (docs/protocol.md, "Board views") into one shape:
 * {n, k, players, owners, faces, symbols, turn, legal, last, winners, over, phase, setup}.
 */
export function normalize(view) {
  const rules = view.rules;
  const players = view.players;
  const b = parsePosition(view.position, players);
  b.players = players;
  b.turn = view.turn;
  b.k = rules.line;
  b.faces = view.faces ? parseFaces(view.faces, b.n) : null;
  b.symbols = (view.symbols || []).map(symbolIndex);
  while (b.symbols.length < players) b.symbols.push(b.symbols.length);
  b.legal = view.legal;
  b.last = view.last;
  b.winners = view.winners;
  b.lines = view.lines || [];  // the engine's: each winner's full windows
  b.coach = view.coach || null;  // the engine's advice to the seat to move (tutorial_dice.js)
  b.over = view.phase === "over";
  b.termination = view.outcome ? view.outcome.termination : null;
  b.phase = view.phase;
  b.setup = view.setup;
  b.actor = view.actor;
  return b;
}

export class BoardUI extends GameView {
  constructor(el, ctx) {
    super(el, ctx, h("div.board-game"));
    this.preview = null;        // on touch screens a push is tapped twice: preview, then push
  }

  move(move, isPush) {
    const coarse = matchMedia("(pointer: coarse)").matches;
    if (isPush && coarse && this.preview !== move) {
      this.preview = move;
      this.render();
      return;
    }
    this.preview = null;
    this.ctx.act(move);
  }

  update(msg) {
    this.preview = null;
    playBoardCues(this.view, msg.view, this.seat);
    super.update(msg);
  }

  lastMove(b) {
    if (b.last && /^[a-h][1-8][<>^v]$/.test(b.last)) return b.last;
    return null;
  }

  render() {
    const view = this.view;
    if (!view) return;
    const b = normalize(view);
    const mine = this.seat !== null && b.actor === this.seat;
    const legal = new Set(mine ? b.legal : []);
    const picks = new Map();
    for (const a of legal) {
      const m = /^(neutral|own)\s+([a-h][1-8])$/.exec(a);
      if (m) picks.set(m[2], a);
    }
    const root = this.root;
    root.dataset.phase = b.phase;
    root.dataset.version = String(this.version);
    root.dataset.actor = b.actor === null || b.actor === undefined ? "" : String(b.actor);
    root.dataset.me = this.seat === null ? "" : String(this.seat);
    if (b.over) root.dataset.over = "1"; else delete root.dataset.over;
    const live = root;
    const fresh = h("div");
    const out = { append: (...nodes) => fresh.append(...nodes) };

    const winLines = b.lines.map((l) => l.cells);

    const names = Array.from({ length: b.players }, (_, s) => this.name(s));
    // The tutorial's tip in the status line's place, its push outlined (tutorial_dice.js).
    const coach = guiding(this.summary, this.seat, this.ctx.tableId) && !picks.size ? diceCoach(this, b, mine) : null;
    out.append(h("div.toprow", { dataset: { key: "top" } }, h("div.topline", null,
      coach ? coachLine(coach.text, () => { skipTutorial(this.ctx.tableId); this.render(); })
        : h("div.status", { id: "status", "aria-live": "polite" }, this.statusText(b, mine, picks.size > 0)))));
    out.append(h("div.board-players", { dataset: { key: "players" } }, names.map((nm, s) => h("div.board-player", {
      class: b.turn === s && !b.over ? "on-turn" : "", dataset: { seat: s },
    },
    h("span.sym-key", null, symbolSvg(b.symbols[s], SEAT_COLOURS[s], SEAT_COLOURS[s])),
    h("strong", null, s === this.seat ? `You (${seatName(this.summary, s)})` : nm),
    h("span.muted-on-felt", null, `${b.owners.filter((o) => o === s).length} dice`),
    (b.winners || []).includes(s) ? h("span.tag.score.win", null, "winner") : null))));
    out.append(boardGrid(b, {
      legal, last: this.lastMove(b), win: winLines, picks, names, marks: coach ? coach.marks : null,
      preview: legal.has(this.preview) ? this.preview : null,
      onMove: (m, isPush) => this.move(m, isPush),
    }));
    const bar = h("div.actions", { role: "toolbar", "aria-label": "Actions", dataset: { key: "actions" } });
    if (legal.has("pass")) bar.append(h("button.primary", { type: "button", dataset: { action: "pass" }, onclick: () => this.ctx.act("pass") }, "Pass (no push is legal)"));
    out.append(bar);
    if (b.over) out.append(this.renderResults(b));
    if (b.setup) out.append(this.renderSetup(b));
    out.append(this.renderLog());
    morphChildren(live, fresh);
  }

  statusText(b, mine, picking) {
    if (b.over) {
      const w = b.winners || [];
      if (!w.length) return `Draw (${String(b.termination || "").replace(/_/g, " ")}).`;
      const names = w.map((s) => this.name(s));
      return `${names.join(" and ")} ${names.length === 1 && names[0] !== "You" ? "wins" : "win"}!`;
    }
    if (b.phase === "setup" || picking) {
      if (mine && picking) {
        const kinds = new Set(b.legal.map((a) => a.split(" ")[0]));
        // Said where the eye is: whose dice you adjust, and what the tap does.
        if (kinds.has("neutral")) return `Setup: you adjust ${this.name(this.setupTarget(b))}'s dice — tap a highlighted die to turn it neutral (at most two of theirs in a line).`;
        return `Setup: you adjust ${this.name(this.setupTarget(b))}'s dice — tap a highlighted cell to give them a die there.`;
      }
      return `Setup: ${this.name(b.actor)} is choosing…`;
    }
    if (this.seat === null) return `Watching · ${this.name(b.turn)} to play.`;
    if (mine) {
      if (this.preview && b.legal.includes(this.preview)) return `Push ${pushWords(this.preview)}? Tap the arrow again.`;
      return matchMedia("(pointer: coarse)").matches
        ? "Your move: tap an arrow to see the push, tap it again to push."
        : "Your move: click an arrow to push a die in.";
    }
    return `${this.name(b.turn)} is thinking…`;
  }

  setupTarget(b) {
    const s = b.setup || {};
    return s.adjusting ?? s.seat ?? b.actor;
  }

  renderSetup(b) {
    const s = b.setup;
    const targets = Array.isArray(s.targets) ? s.targets : [];
    const adjusting = s.adjusting ?? null;
    const counts = Array.from({ length: b.players }, (_, p) => b.owners.filter((o) => o === p).length);
    return h("section.panel.setup-info", { id: "setup-info", dataset: { key: "setup" } },
      h("h2", null, "Setup"),
      h("p", null, "The dice were rolled and the four most common symbols kept; each player got a symbol. "
        + "Now each player's dice are adjusted by the next player: first dice are turned neutral "
        + "(no more than two in any row, column or diagonal), then dice are added, never on a corner."),
      h("ul.setup-counts", null, targets.map((t, p) => h("li", { class: p === adjusting ? "now" : "" },
        `${this.name(p)}: ${counts[p]} dice, ${t} at the start`,
        p === adjusting ? ` — being ${s.adding ? "topped up" : "reduced"} by ${this.name((p + 1) % b.players).replace(/^You$/, "you")}` : ""))));
  }

  /** How the game ended, in words: who made which line (the engine's). */
  resultWords(b) {
    const winners = b.winners || [];
    if (b.termination === "line" && winners.length) {
      return winners.map((w) => {
        const cells = (b.lines.find((l) => l.seat === w) || { cells: [] }).cells;
        const line = cells.length ? `${cellName(cells[0], b.n)}–${cellName(cells[cells.length - 1], b.n)}` : "";
        return `${this.name(w)} made a line of ${b.k}${line ? ` (${line})` : ""}.`;
      }).join(" ");
    }
    return `Ended by: ${String(b.termination).replace(/_/g, " ")}.`;
  }

  renderResults(b) {
    const sum = this.summary || {};
    const box = h("section.results", { id: "results", dataset: { key: "results" } },
      h("h2", null, this.statusText(b, false, false)),
      b.termination ? h("p.muted", { id: "result-words" }, this.resultWords(b)) : null);
    const actions = h("div.result-actions");
    if (this.ctx.isHost()) actions.append(h("button.primary.big", { type: "button", id: "again", onclick: () => this.ctx.again() }, "Play again"));
    const k = sum.game_no !== undefined ? `?game=${sum.game_no}` : "";
    actions.append(h("a.button", { href: `/r/${encodeURIComponent(this.ctx.tableId)}${k}`, id: "replay-link" }, "Watch the replay"));
    box.append(actions);
    return box;
  }

  renderLog() {
    const items = this.log.slice(-80).reverse().map((ev) => h("li", null, this.eventLine(ev)));
    if (this.logOpen === undefined) this.logOpen = !matchMedia("(max-width: 760px)").matches;
    return h("details.log", {
      open: this.logOpen, dataset: { key: "log" },
      ontoggle: (e) => { this.logOpen = e.currentTarget.open; },
    },
      h("summary", null, `Moves (${this.log.length})`),
      h("ol.log-list", { reversed: true }, items));
  }

  eventLine(ev) {
    const players = this.view ? normalize(this.view).players : 2;
    const who = ev.seat !== undefined && ev.seat !== null ? this.name(ev.seat) : "Chance";
    const m = ev.move || ev.action || ev.setup || "";
    const [verb, cell] = m.split(" ");
    let text;
    if (m === "pass") text = `${who} passed (no push was legal)`;
    else if (/^[a-h][1-8][<>^v]$/.test(m)) text = [`${who} pushed ${pushWords(m)} `, h("small.notation", null, `(${m})`)];
    else if ((verb === "neutral" || verb === "own") && ev.seat !== undefined) {
      // The seat choosing adjusts the dice of the seat before it.
      const other = this.name((ev.seat + players - 1) % players);
      text = verb === "neutral"
        ? `Setup: ${who} turned ${other === "You" ? "your" : `${other}'s`} die on ${cell} neutral`
        : `Setup: ${who} gave ${other === "You" ? "you" : other} a die on ${cell}`;
    } else text = `${who}: ${m}`;
    const parts = Array.isArray(text) ? text : [text];
    const end = ev.end;
    if (end && typeof end === "object") {
      const w = (end.winners || []).map((s) => this.name(s));
      parts.push(w.length ? ` — ${w.join(" and ")} ${w.length === 1 && w[0] !== "You" ? "wins" : "win"}`
        : ` — draw (${String(end.termination || "").replace(/_/g, " ")})`);
    }
    return h("span", null, ...parts);
  }
}

// ---------------------------------------------------------------------- replay
export function renderBoardStatic(box, names, frame) {
  clear(box);
  const b = frame.b;
  const players = b.players || names.length;
  box.append(h("div.board-game.replay-table", null,
    h("div.board-players", null, Array.from({ length: players }, (_, s) => h("div.board-player", {
      class: (frame.winners || []).includes(s) ? "on-turn" : "",
    }, b.symbols[s] !== undefined ? h("span.sym-key", null, symbolSvg(b.symbols[s], SEAT_COLOURS[s], SEAT_COLOURS[s])) : null,
    h("strong", null, names[s])))),
    boardGrid(b, { legal: new Set(), last: frame.last || null, win: frame.win || [], names })));
}
