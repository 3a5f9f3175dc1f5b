// What every game's table UI does with the server's messages, whatever it draws: keep the
// summary, the view, the version and the log, and redraw. A game's UI extends GameView
// and draws in render() (board.js, generic.js).
import { t } from "./i18n.js";
import { seatName } from "./common.js";

/** @typedef {import("./cards.js").TableContext} TableContext */
/** @typedef {import("./messages.js").TableSummary} TableSummary */
/**
 * A game's state or update message as a game UI reads it: the view is the game's own.
 * @typedef {{ view: any, version: number, log?: any[], event?: any }} ViewMessage
 */

export class GameView {
  /** @param {HTMLElement} el  where the game goes  @param {TableContext} ctx  table.js's hooks
   *  @param {HTMLElement} root  the UI's own element, appended to el */
  constructor(el, ctx, root) {
    this.el = el;
    this.ctx = ctx;
    /** @type {TableSummary | null} */
    this.summary = null;
    /** @type {any} */
    this.view = null;
    /** @type {any[]} */
    this.log = [];
    this.version = 0;
    this.root = root;
    el.append(root);
  }

  destroy() { this.root.remove(); }

  get seat() { return this.ctx.seat(); }

  /** @param {TableSummary | null} summary */
  setSummary(summary) {
    this.summary = summary;
    if (this.view) this.render();
  }

  /** @param {ViewMessage} msg */
  state(msg) {
    this.view = msg.view;
    this.version = msg.version;
    this.log = Array.isArray(msg.log) ? [...msg.log] : [];
    this.render();
  }

  /** @param {ViewMessage} msg */
  update(msg) {
    this.view = msg.view;
    this.version = msg.version;
    if (msg.event) this.log.push(msg.event);
    this.render();
  }

  rejected() { this.render(); }

  /** @param {number | null | undefined} seat @returns {string} */
  name(seat) {
    if (seat === this.seat && seat !== null && seat !== undefined) return t("common.you");
    return seatName(this.summary, seat);
  }

  render() {}
}
