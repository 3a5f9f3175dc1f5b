// The status line's words: whose move it is and what ours asks for, in the table's words.
// Pure: a function of the state.
import { cardText, isCode } from "../cardface.js";
import { completed, giveTo, legal, nameOf, pileTop, slotActions, snaps, tapSnaps } from "./model.js";

/** @typedef {import("./model.js").CardsState} CardsState */
/** @typedef {import("../messages.js").CardView} CardView */

export const END_REASONS = /** @type {Record<string, string>} */ ({
  cambio: "Cambio was called and everyone had a final turn.",
  deck_exhausted: "The deck ran out.",
  turn_cap: "The round reached its turn cap.",
});

/** @param {CardsState} st @param {CardView} view */
function othersMove(st, view) {
  const who = nameOf(st, view.actor);
  const doing = /** @type {Record<string, string>} */ ({
    turn_start: `${who} to play.`,
    drawn: `${who} holds a card.`,
    power: `${who} is using a power${view.power ? ` (${view.power.replace(/_/g, " ")})` : ""}.`,
    king_decide: `${who} decides whether to switch.`,
    give: `${who} gives a card to ${nameOf(st, giveTo(view))}.`,
    poll: "Snap?",
  });
  return doing[view.phase] || `${who} to play.`;
}

/** The status line. @param {CardsState} st @param {CardView} view */
export function statusText(st, view) {
  if (view.phase === "round_over") {
    const winners = (view.winners || []).map((w) => nameOf(st, w));
    if (!winners.length) return "Round over.";
    const verb = winners.length === 1 && winners[0] !== "You" ? "wins" : "win";
    return `Round over: ${winners.join(" and ")} ${verb}!`;
  }
  if (st.seat === null) {
    return view.actor === null || view.actor === undefined
      ? "Watching." : `Watching · ${nameOf(st, view.actor)} to play.`;
  }
  const verbs = new Set(legal(st).map((a) => a.verb));
  const top = pileTop(view);
  const snapHint = snaps(st).size && tapSnaps(st) && top
    ? ` Snap: tap a card you think matches the ${cardText(top)}.`
    : "";
  if (view.actor !== st.seat || (verbs.size === 1 && verbs.has("snap"))) return othersMove(st, view) + snapHint;
  if (st.selected.length) {
    return completed(st).length ? "Confirm, or tap the card again." : "Now tap the second card.";
  }
  if (verbs.has("give")) return `Right! Give one of your cards to ${nameOf(st, giveTo(view))}: tap it.`;
  if (verbs.has("draw")) {
    let t = "Your turn: draw a card";
    if (verbs.has("take") && top) t += ` or take the ${cardText(top)}`;
    if (verbs.has("cambio")) t += ", or call Cambio";
    return `${t}.${snapHint}`;
  }
  if (verbs.has("swap")) {
    const held = isCode(view.held) ? cardText(view.held) : "the card";
    return view.held_from_pile
      ? `Tap one of your cards to swap the ${held} in.`
      : `You hold ${held}: tap one of your cards to swap it in, or discard it.`;
  }
  if (verbs.has("discard")) return "Discard the card.";
  if (verbs.has("peek")) {
    const own = slotActions(st).every((a) => a.targets[0].startsWith(`${st.seat}.`));
    return `Power: tap ${own ? "one of your cards" : "another player's card"} to peek at it.`;
  }
  if (verbs.has("look")) return "Power: tap two highlighted cards to look at them.";
  if (verbs.has("switch") && verbs.has("keep")) return "Switch the two cards you looked at, or keep them.";
  if (verbs.has("switch")) return "Power: tap two highlighted cards to switch them.";
  if (verbs.has("pass")) return "Snap a matching card, or pass.";
  return "Your move.";
}
