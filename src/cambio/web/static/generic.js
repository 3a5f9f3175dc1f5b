// Any game a server holds, drawn without knowing it: its view as a list of what it says,
// its legal actions (the server sends them to the seat that decides) as buttons, and the
// log of what was played. A game served with `cambio serve --game` is playable in the
// browser through this; the card and dice games have UIs of their own (table.js picks one
// by the view's "game" and falls back to this one).
import { clear, h } from "./common.js";
import { GameView } from "./gameview.js";
import { t } from "./i18n.js";

/** The view's own fields (the table's: game, seat, players, actor, legal are shown apart). */
const TABLE_KEYS = new Set(["game", "seat", "players", "actor", "legal"]);

/** @param {unknown} value */
function valueText(value) {
  if (value === null || value === undefined) return "—";
  return typeof value === "object" ? JSON.stringify(value) : String(value);
}

/** The view's fields as a definition list (data-key on each entry, for tests and styles).
 * @param {Record<string, unknown>} view */
export function viewFields(view) {
  return h("dl.generic-view", null, Object.entries(view).filter(([k]) => !TABLE_KEYS.has(k))
    .flatMap(([k, v]) => [h("dt", { dataset: { key: k } }, k.replace(/_/g, " ")),
      h("dd", { dataset: { key: k } }, valueText(v))]));
}

export class GenericUI extends GameView {
  /** @param {HTMLElement} el @param {import("./gameview.js").TableContext} ctx */
  constructor(el, ctx) {
    super(el, ctx, h("div.generic-game", { id: "generic-game" }));
  }

  /** @override */
  render() {
    const view = this.view;
    if (!view) return;
    const root = this.root;
    root.dataset.version = String(this.version);
    root.dataset.actor = view.actor === null || view.actor === undefined ? "" : String(view.actor);
    const winners = (this.summary && this.summary.result && this.summary.result.winners) || null;
    const status = winners
      ? (winners.length ? (winners.length === 1 && winners[0] === this.seat ? t("dice.youWin") : t("dice.winners", { count: winners.length, names: winners.map((/** @type {number} */ s) => this.name(s)).join(t("common.and")) })) : t("generic.draw"))
      : view.actor === null || view.actor === undefined ? t("generic.over")
        : view.actor === this.seat ? t("status.yourMove") : t("status.toPlay", { who: this.name(view.actor) });
    if (winners) root.dataset.over = "1"; else delete root.dataset.over;
    const legal = view.actor === this.seat ? view.legal || [] : [];
    clear(root).append(
      h("p.status", { id: "generic-status", "aria-live": "polite" }, status),
      viewFields(view),
      h("div.generic-actions", { id: "generic-actions" }, legal.map((/** @type {string} */ a) => h("button", {
        type: "button", dataset: { action: a }, onclick: () => this.ctx.act(a),
      }, a))),
      h("ol.generic-log", { id: "generic-log" }, this.log.map((/** @type {{ seat: number, action: string }} */ ev) => h("li", null,
        `${this.name(ev.seat)}: ${ev.action}`))),
      winners && this.ctx.isHost() ? h("button.primary", { type: "button", id: "again", onclick: () => this.ctx.again() }, t("results.again")) : "");
  }
}

/** A replay frame of any game: the engine's view after the step (replay.js).
 * @param {HTMLElement} box @param {string[]} _names @param {{ view: Record<string, unknown> }} frame */
export function renderGenericFrame(box, _names, frame) {
  clear(box).append(h("div.generic-game.replay-table", null, viewFields(frame.view)));
}
