// The dice board game: the 5×5 dice with their symbols, push arrows, the setup, the result.
//
// Positions are the engine's strings (rows from the top, x/o/s for seats 0/1/2, digits for
// runs of neutral dice); faces are digit rows (symbol numbers, docs/board-rules.md). The
// client sends only move texts from view.legal ("a3>", "c5v", "pass", "neutral c3", …).
import { clear, h, morphChildren, seatName } from "./common.js";
import { GameView } from "./gameview.js";
import { playBoardCues } from "./sound.js";
import { coachLine, guiding, skipTutorial } from "./tutorial.js";
import { diceCoach } from "./tutorial_dice.js";
import { boardStatus, lastPush, offered, tapMove } from "./board/controller.js";
import { cellName, normalize, pushWords } from "./board/model.js";
import { SEAT_COLOURS, boardGrid, symbolSvg } from "./board/view.js";
import { replayPath } from "./review/model.js";

export class BoardUI extends GameView {
  constructor(el, ctx) {
    super(el, ctx, h("div.board-game"));
    this.preview = null;        // on touch screens a push is tapped twice: preview, then push
  }

  move(move, isPush) {
    const { preview, send } = tapMove(this.preview, move, isPush, matchMedia("(pointer: coarse)").matches);
    this.preview = preview;
    if (send) this.ctx.act(send);
    else this.render();
  }

  update(msg) {
    this.preview = null;
    playBoardCues(this.view, msg.view, this.seat);
    super.update(msg);
  }

  render() {
    const view = this.view;
    if (!view) return;
    const b = normalize(view);
    const mine = this.seat !== null && b.actor === this.seat;
    const { legal, picks } = offered(b, mine);
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
      legal, last: lastPush(b), win: winLines, picks, names, marks: coach ? coach.marks : null,
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
    return boardStatus(b, {
      seat: this.seat, mine, picking, preview: this.preview, coarse: matchMedia("(pointer: coarse)").matches,
      name: (s) => this.name(s),
    });
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
    // The replay opens on this seat's review.
    actions.append(h("a.button", { href: replayPath(this.ctx.tableId, sum.game_no, this.ctx.seat()), id: "replay-link" }, "Watch the replay"));
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
