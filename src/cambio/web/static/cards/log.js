// The table's log: one line per move, in words, newest first. What only you saw (a drawn
// card, a peek, a look, a card you gave) stays in the log in assist mode only: from memory,
// it is shown for a moment on the table, then gone.
import { h } from "../common.js";
import { t, tNodes } from "../i18n.js";
import { cardSpan, isCode } from "../cardface.js";
import { actorName, slotName } from "./model.js";

/** @typedef {import("./model.js").CardsState} CardsState */
/** @typedef {import("../messages.js").CardEvent} CardEvent */
/** @typedef {string | Node} Part */

/** @param {CardsState} st @param {CardEvent} ev @param {string} who @returns {Part[]} */
function parts(st, ev, who) {
  const [verb, a, b] = /** @type {string} */ (ev.action).split(" ");
  /** @param {unknown} c @returns {Part[]} */
  const seen = (c) => (isCode(c) && st.assist ? [" (", cardSpan(c), ")"] : []);
  /** @param {string} x */
  const ownSlot = (x) => (ev.seat === st.seat ? t("slot.yours", { n: Number(x) + 1 }) : t("slot.theirs", { n: Number(x) + 1 }));
  /** @param {string} x */
  const slot = (x) => slotName(st, x, ev.seat);
  /** @param {string[]} cards @returns {Part[]} */
  const list = (cards) => cards.flatMap((c, i) => [i ? ", " : "", cardSpan(c)]);
  const single = (/** @type {unknown} */ c) => cardSpan(typeof c === "string" ? c : "?");
  switch (verb) {
    case "draw": return [t("log.draw", { who }), ...seen(ev.card)];
    case "take": return tNodes("log.take", { who, card: single(ev.card) });
    case "swap": return tNodes("log.swap", { who, slot: ownSlot(a), card: single(ev.discarded) });
    case "discard": return tNodes("log.discard", { who, card: single(ev.discarded) });
    case "exchange": {
      // Several equal cards went to the pile, or unequal ones were turned face up.
      const gone = Array.isArray(ev.discarded) ? ev.discarded : [];
      const shown = Array.isArray(ev.revealed) ? ev.revealed : [];
      return gone.length
        ? [t("log.exchange", { who }), " ", ...list(gone)]
        : [t("log.exchangeWrong", { who }), " ", ...list(shown)];
    }
    case "peek": return [t("log.peek", { who, slot: slot(a) }), ...seen(ev.card)];
    case "look": {
      const cards = Array.isArray(ev.cards) ? ev.cards : [];
      return [t("log.look", { who, a: slot(a), b: slot(b) }),
        ...(cards.length && st.assist ? [" (", cardSpan(cards[0]), ", ", cardSpan(cards[1]), ")"] : [])];
    }
    case "switch": return [t("log.switch", { who, a: slot(a), b: slot(b) })];
    case "keep": return [t("log.keep", { who })];
    case "skip": return [t("log.skip", { who })];
    case "snap": return [...tNodes("log.snap", { who, slot: slot(a), card: single(ev.card) }),
      ev.right ? ` ✓ ${t("log.snapRight")}` : ` ✗ ${t("log.snapWrong")}`];
    case "give": return [t("log.give", { who, slot: ownSlot(a) }), ...seen(ev.card)];
    case "cambio": return [t("log.cambio", { who })];
    case "pass": return [t("log.pass", { who })];
    default: return [`${who}: ${ev.action}`];
  }
}

/** One move in words. @param {CardsState} st @param {CardEvent} ev @returns {Node | string} */
export function eventLine(st, ev) {
  if (!ev || typeof ev !== "object") return "";
  if (ev.deal) return t("log.deal");
  if (typeof ev.action !== "string") return JSON.stringify(ev);
  const out = parts(st, ev, actorName(st, ev));
  if (ev.reshuffled) out.push(` · ${t("log.reshuffled")}`);
  return h("span", null, ...out);
}

/** The log panel. @param {CardsState} st @param {(open: boolean) => void} onToggle */
export function logView(st, onToggle) {
  // The move that ends the round carries the end facts: its own line, then the round-over line.
  const items = st.log.slice(-80).reverse().flatMap((ev) => [
    ...(ev && ev.end ? [h("li.log-end", null, t("log.roundOver"))] : []),
    h("li", null, eventLine(st, ev)),
  ]);
  return h("details.log", {
    open: st.logOpen, dataset: { key: "log" },
    ontoggle: (/** @type {Event} */ e) => onToggle(/** @type {HTMLDetailsElement} */ (e.currentTarget).open),
  },
  h("summary", null, t("log.title", { count: items.length })),
  h("ol.log-list", { reversed: true }, items));
}
