// The table's log: one line per move, in words, newest first. What only you saw (a drawn
// card, a peek, a look, a card you gave) stays in the log in assist mode only: from memory,
// it is shown for a moment on the table, then gone.
import { h } from "../common.js";
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
  const ownSlot = (x) => (ev.seat === st.seat ? `your card ${Number(x) + 1}` : `their card ${Number(x) + 1}`);
  /** @param {string} x */
  const slot = (x) => slotName(st, x, ev.seat);
  /** @param {string[]} cards @returns {Part[]} */
  const list = (cards) => cards.flatMap((c, i) => [i ? ", " : "", cardSpan(c)]);
  const single = (/** @type {unknown} */ c) => cardSpan(typeof c === "string" ? c : "?");
  switch (verb) {
    case "draw": return [`${who} drew a card`, ...seen(ev.card)];
    case "take": return [`${who} took `, single(ev.card), " from the pile"];
    case "swap": return [`${who} swapped it into ${ownSlot(a)}, discarding `, single(ev.discarded)];
    case "discard": return [`${who} discarded `, single(ev.discarded)];
    case "exchange": {
      // Several equal cards went to the pile, or unequal ones were turned face up.
      const gone = Array.isArray(ev.discarded) ? ev.discarded : [];
      const shown = Array.isArray(ev.revealed) ? ev.revealed : [];
      return gone.length
        ? [`${who} exchanged it for `, ...list(gone)]
        : [`${who} tried to exchange unequal cards: `, ...list(shown)];
    }
    case "peek": return [`${who} peeked at ${slot(a)}`, ...seen(ev.card)];
    case "look": {
      const cards = Array.isArray(ev.cards) ? ev.cards : [];
      return [`${who} looked at ${slot(a)} and ${slot(b)}`,
        ...(cards.length && st.assist ? [" (", cardSpan(cards[0]), ", ", cardSpan(cards[1]), ")"] : [])];
    }
    case "switch": return [`${who} switched ${slot(a)} and ${slot(b)}`];
    case "keep": return [`${who} kept the cards where they were`];
    case "skip": return [`${who} skipped the power`];
    case "snap": return [`${who} snapped ${slot(a)}: `, single(ev.card),
      ev.right ? " ✓ right" : " ✗ wrong, penalty card"];
    case "give": return [`${who} gave ${ownSlot(a)}`, ...seen(ev.card)];
    case "cambio": return [`${who} called Cambio!`];
    case "pass": return [`${who} passed`];
    default: return [`${who}: ${ev.action}`];
  }
}

/** One move in words. @param {CardsState} st @param {CardEvent} ev @returns {Node | string} */
export function eventLine(st, ev) {
  if (!ev || typeof ev !== "object") return "";
  if (ev.deal) return "The cards are dealt; everyone peeks at their two bottom cards.";
  if (typeof ev.action !== "string") return JSON.stringify(ev);
  const out = parts(st, ev, actorName(st, ev));
  if (ev.reshuffled) out.push(" · the pile was shuffled into the deck");
  return h("span", null, ...out);
}

/** The log panel. @param {CardsState} st @param {(open: boolean) => void} onToggle */
export function logView(st, onToggle) {
  // The move that ends the round carries the end facts: its own line, then the round-over line.
  const items = st.log.slice(-80).reverse().flatMap((ev) => [
    ...(ev && ev.end ? [h("li.log-end", null, "The round is over.")] : []),
    h("li", null, eventLine(st, ev)),
  ]);
  return h("details.log", {
    open: st.logOpen, dataset: { key: "log" },
    ontoggle: (/** @type {Event} */ e) => onToggle(/** @type {HTMLDetailsElement} */ (e.currentTarget).open),
  },
  h("summary", null, `Log (${items.length})`),
  h("ol.log-list", { reversed: true }, items));
}
