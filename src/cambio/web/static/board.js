// The dice board game: the 5×5 dice with their symbols, push arrows, the setup, the result.
//
// Positions are the engine's strings (rows from the top, x/o/s for seats 0/1/2, digits for
// runs of neutral dice); faces are digit rows (symbol numbers, docs/board-rules.md). The
// client sends only move texts from view.legal ("a3>", "c5v", "pass", "neutral c3", …).
import { clear, h, morphChildren } from "./common.js";
import { t } from "./i18n.js";
import { GameView } from "./gameview.js";
import { playBoardCues } from "./sound.js";
import { coachLine, guiding, skipTutorial } from "./tutorial.js";
import { diceCoach } from "./tutorial_dice.js";
import { boardStatus, lastPush, offered, tapMove } from "./board/controller.js";
import { normalize } from "./board/model.js";
import { logPanel, playersBar, resultsPanel, setupPanel } from "./board/panels.js";
import { SEAT_COLOURS, boardGrid, symbolSvg } from "./board/view.js";

/** @typedef {import("./board/model.js").Board} Board */

export class BoardUI extends GameView {
  /** @param {HTMLElement} el @param {import("./gameview.js").TableContext} ctx */
  constructor(el, ctx) {
    super(el, ctx, h("div.board-game"));
    /** @type {string | null} */
    this.preview = null;        // on touch screens a push is tapped twice: preview, then push
    /** @type {boolean | undefined} */
    this.logOpen = undefined;   // the log's disclosure as the player left it
  }

  /** @param {string} move @param {boolean} isPush */
  move(move, isPush) {
    const { preview, send } = tapMove(this.preview, move, isPush, matchMedia("(pointer: coarse)").matches);
    this.preview = preview;
    if (send) this.ctx.act(send);
    else this.render();
  }

  /** @param {import("./gameview.js").ViewMessage} msg @override */
  update(msg) {
    this.preview = null;
    playBoardCues(this.view, msg.view, this.seat);
    super.update(msg);
  }

  /** @override */
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
    const out = fresh;
    /** @param {number} s */
    const name = (s) => this.name(s);
    // The tutorial's tip in the status line's place, its push outlined (tutorial_dice.js).
    const me = this.seat;
    const coach = me !== null && guiding(this.summary, me, this.ctx.tableId) && !picks.size
      ? diceCoach({ seat: me, preview: this.preview, log: this.log, name }, b, mine) : null;
    out.append(h("div.toprow", { dataset: { key: "top" } }, h("div.topline", null,
      coach ? coachLine(coach.text, () => { skipTutorial(this.ctx.tableId); this.render(); })
        : h("div.status", { id: "status", "aria-live": "polite" }, this.statusText(b, mine, picks.size > 0)))));
    out.append(playersBar(b, { seat: this.seat, summary: this.summary, name }));
    out.append(boardGrid(b, {
      legal, last: lastPush(b), win: b.lines.map((l) => l.cells), picks,
      names: Array.from({ length: b.players }, (_, s) => name(s)), marks: coach ? coach.marks : null,
      preview: this.preview !== null && legal.has(this.preview) ? this.preview : null,
      onMove: (m, isPush) => this.move(m, isPush),
    }));
    const bar = h("div.actions", { role: "toolbar", "aria-label": t("actions.label"), dataset: { key: "actions" } });
    if (legal.has("pass")) bar.append(h("button.primary", { type: "button", dataset: { action: "pass" }, onclick: () => this.ctx.act("pass") }, t("dice.pass")));
    out.append(bar);
    if (b.over) {
      out.append(resultsPanel(b, {
        status: this.statusText(b, false, false), name, isHost: this.ctx.isHost(), tableId: this.ctx.tableId,
        gameNo: this.summary ? this.summary.game_no : undefined, seat: this.ctx.seat(), onAgain: () => this.ctx.again(),
      }));
    }
    if (b.setup) out.append(setupPanel(b, name));
    if (this.logOpen === undefined) this.logOpen = !matchMedia("(max-width: 760px)").matches;
    out.append(logPanel(this.log, b.players, name, { open: this.logOpen, onToggle: (open) => { this.logOpen = open; } }));
    morphChildren(live, fresh);
  }

  /** @param {Board} b @param {boolean} mine @param {boolean} picking */
  statusText(b, mine, picking) {
    return boardStatus(b, {
      seat: this.seat, mine, picking, preview: this.preview, coarse: matchMedia("(pointer: coarse)").matches,
      name: (s) => this.name(s),
    });
  }
}

// ---------------------------------------------------------------------- replay
/**
 * A replay's frame of the board, drawn into `box` (replay.js).
 * @param {HTMLElement} box @param {string[]} names
 * @param {{ b: Board, last?: string | null, win?: number[], winners?: number[] | null }} frame
 */
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
