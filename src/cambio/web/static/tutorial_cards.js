// The card game's guided first round, so a newcomer learns by playing: what to do next, in the table's
// words, and what the table should outline for it (card addresses, "deck", "pile", a
// button's action).
//
// The tutorial table is dealt from a fixed seed (server/tutorial.py): every newcomer holds
// 2♠ A♦ / 3♦ 4♣, draws the 8♥ first (a power), meets 4s on the pile soon (a snap of her card
// 4), watches the bot use a J♦, and holds a hand low enough to call Cambio early. The
// script relies on that for the order in which things come up, never for a card: every card
// it names is one this seat's view shows (its own cards it has seen, the pile, the card it
// holds). When the round goes another way (the bot takes from the pile, a snap), the tips
// still follow what is on the table.
import { cardText, isCode } from "./cardface.js";
import { effectiveRules, powerText } from "./rules.js";
import {
  giveTo, legal, nameOf, slotActions, snaps, tapSnaps, targetable,
} from "./cards/model.js";

const CAMBIO_AFTER_TURNS = 3;   // your turns before the tutorial suggests calling Cambio

const rankOf = (/** @type {unknown} */ code) => (isCode(code) ? code[0] : null);

/** A card's points under the table's rules (the catalogue's preset values and overrides). */
/** @param {unknown} cat @param {import("./messages.js").TableRules | undefined} rules @param {unknown} code
 * @returns {number | null} */
export function cardValue(cat, rules, code) {
  if (!isCode(code)) return null;
  const r = effectiveRules(cat, rules);
  const rank = code[0];
  const red = code[1] === "D" || code[1] === "H";
  if (rank === "X") return r.value_joker ?? 0;
  if (rank === "A") return r.value_ace ?? 1;
  if (rank === "T") return 10;
  if (rank === "J") return r.value_jack ?? 10;
  if (rank === "Q") return r.value_queen ?? 10;
  if (rank === "K") return red ? (r.value_red_king ?? -1) : (r.value_black_king ?? 10);
  return Number(rank);
}

/** @param {string} addr */
function slotNo(addr) { return Number(addr.split(".")[1]) + 1; }

/** @typedef {import("./cards/model.js").CardsState} CardsState */
/** @typedef {import("./messages.js").CardView} CardView */

/** How many turns this seat has begun (a draw or a take in the log). @param {CardsState} st */
function turnsTaken(st) {
  return st.log.filter((ev) => ev && ev.seat === st.seat
    && (ev.action === "draw" || ev.action === "take")).length;
}

/** The tip for what is on the table now: {text, marks} (marks: a Set of what to outline).
 * Short: the status line keeps three lines on a phone.
 * @param {CardsState} st @param {CardView} view
 * @returns {{ text: string, marks: Set<string> } | null} */
export function cardsCoach(st, view) {
  if (st.seat === null) return null;
  const me = st.seat;
  const mine = view.actor === me;
  const verbs = new Set(legal(st).map((a) => a.verb));
  const grid = view.grids[me] || [];
  const top = view.discard.length ? view.discard[view.discard.length - 1] : null;
  const cat = st.rulesCat;
  const tip = (/** @type {string} */ text, /** @type {string[]} */ ...marks) => ({ text: text.charAt(0).toUpperCase() + text.slice(1), marks: new Set(marks) });
  const other = nameOf(st, (me + 1) % view.grids.length);

  if (view.phase === "round_over") {
    const won = (view.winners || []).includes(me);
    return tip(`${won ? "You won the round!" : "The round is over."} The lowest total wins. `
      + "Replay the tutorial, or play for real, from the lobby.");
  }

  // A snap: the pile's top card has the rank of a card of yours that you have seen.
  const snapOf = snaps(st);
  if (top && snapOf.size) {
    const match = grid.findIndex((c, i) => rankOf(c) === rankOf(top) && snapOf.has(`${me}.${i}`));
    if (match >= 0) {
      const how = tapSnaps(st) ? "Tap" : "Press Snap…, then tap";
      return tip(`Snap! The pile's ${cardText(top)} matches your card ${match + 1} (the `
        + `${cardText(grid[match])}). ${how} your card ${match + 1} before another card covers it. `
        + "A wrong snap costs a penalty card.", `${me}.${match}`, "snap-mode");
    }
  }
  if (verbs.has("give")) {
    const to = nameOf(st, giveTo(view));
    const give = slotActions(st).filter((a) => a.verb === "give").map((a) => a.targets[0]);
    const high = give.reduce((best, t) => ((cardValue(cat, view.rules, grid[slotNo(t) - 1]) ?? 5)
      > (cardValue(cat, view.rules, grid[slotNo(best) - 1]) ?? 5) ? t : best), give[0]);
    return tip(`A right snap of ${to}'s card: now give ${to} one of yours (your highest). Tap it.`, high);
  }
  if (!mine) {
    if (view.caller === me) return tip(`You called Cambio: ${nameOf(st, view.actor)} has a last turn, then every card turns over.`);
    const used = top && (view.phase === "power" || view.phase === "king_decide") ? powerText(cat, view.rules, top) : null;
    if (used) {
      return tip(`${nameOf(st, view.actor)} discarded the ${cardText(top)} and uses its power: `
        + `${used.charAt(0).toLowerCase()}${used.slice(1)}. Watch which cards.`);
    }
    if (view.phase === "give") {
      return tip(`${nameOf(st, view.actor)} snapped a card right and now gives one of theirs in its place.`);
    }
    return tip(`${nameOf(st, view.actor)} is playing. Watch the pile: if its top card matches a card `
      + "you have seen, snap it.");
  }

  // Holding a card.
  if (verbs.has("swap") || (verbs.has("discard") && isCode(view.held))) {
    const held = view.held;
    const power = powerText(cat, view.rules, held);
    const twin = grid.findIndex((c) => rankOf(c) === rankOf(held));
    if (twin >= 0 && !view.held_from_pile && verbs.has("discard")) {
      return tip(`You drew the ${cardText(held)} and your card ${twin + 1} is the `
        + `${cardText(grid[twin])}. Discard it (tap the pile), then snap your card ${twin + 1} at once: `
        + "one card fewer.", "discard", "pile");
    }
    if (power && verbs.has("discard")) {
      return tip(`The ${cardText(held)} is a power card. Discard it (tap the pile) to use it: `
        + `${power.charAt(0).toLowerCase()}${power.slice(1)}.`, "discard", "pile");
    }
    const value = cardValue(cat, view.rules, held);
    let worst = -1;
    grid.forEach((c, i) => {
      const v = cardValue(cat, view.rules, c);
      if (v !== null && value !== null && v > value
          && (worst < 0 || v > (cardValue(cat, view.rules, grid[worst]) ?? 0))) worst = i;
    });
    if (worst >= 0 && verbs.has("swap")) {
      const addr = `${me}.${worst}`;
      if (st.selected.includes(addr)) return tip(`Confirm: swap the ${cardText(held)} into your card ${worst + 1}.`, "confirm-swap");
      return tip(`Lower is better: the ${cardText(held)} (${value} points) beats your card ${worst + 1} `
        + `(the ${cardText(grid[worst])}). Tap your card ${worst + 1} to swap it in.`, addr);
    }
    return tip(`The ${cardText(held)} is worth ${value} points, more than your cards. `
      + "Discard it (tap the pile).", "discard", "pile");
  }

  // A power.
  const done = st.selected.length
    ? slotActions(st).find((a) => a.targets.length === st.selected.length
      && a.targets.every((t) => st.selected.includes(t)))
    : null;
  if (done) return tip("Now confirm with the button that names your choice.", `confirm-${done.verb}`);
  if (verbs.has("peek")) {
    const targets = slotActions(st).map((a) => a.targets[0]);
    if (targets.every((t) => t.startsWith(`${me}.`))) {
      const unseen = targets.filter((t) => grid[slotNo(t) - 1] === "?");
      const which = unseen.map((t) => `card ${slotNo(t)}`).join(" or ");
      return tip(`Power: tap a card of yours you have not seen${which ? ` (${which})` : ""} to peek `
        + "at it. Remember it!", ...(unseen.length ? unseen : targets.slice(0, 1)));
    }
    return tip(`Power: tap one of ${other}'s cards to peek at it. Remember it!`, ...targets.slice(0, 1));
  }
  if (verbs.has("look")) {
    return tip("The king's power: tap two cards to look at them, then switch them or keep them.",
      ...[...targetable(st)].filter((t) => !st.selected.includes(t)).slice(0, 1));
  }
  if (verbs.has("switch") && verbs.has("keep")) return tip("Switch the two cards if that lowers your total, or keep them.", "keep", "switch");
  if (verbs.has("switch")) {
    // Your cards are low on this deal: the harmless switch is two of the other player's.
    const theirs = [...targetable(st)].filter((t) => !t.startsWith(`${me}.`) && !st.selected.includes(t));
    return tip(`Power: switch any two cards, unseen. Yours are low, so switch two of ${other}'s: `
      + "tap two of them, then confirm.", ...theirs.slice(0, 1));
  }
  if (verbs.has("skip")) return tip("You may use the power or skip it.", "skip");

  // The start of a turn.
  if (verbs.has("draw")) {
    if (view.caller !== null && view.caller !== undefined) {
      return tip(`${nameOf(st, view.caller)} called Cambio: this is your last turn. Draw, and make it count.`, "draw", "deck");
    }
    if (st.version === 0) {
      const seen = grid.map((c, i) => (isCode(c) ? `card ${i + 1} is the ${cardText(c)}` : null)).filter(Boolean);
      return tip(`The lowest total wins. Your bottom cards show for 5 s: ${seen.join(", ")}. `
        + "Remember them! Then Draw.", "draw", "deck");
    }
    if (verbs.has("cambio") && turnsTaken(st) >= CAMBIO_AFTER_TURNS) {
      const sum = grid.filter((c) => isCode(c)).reduce((t, c) => t + (cardValue(cat, view.rules, c) ?? 0), 0);
      return tip(`The cards you know add up to ${sum}: low. Call Cambio (tap it twice): the others `
        + "get one last turn, then the lowest total wins.", "cambio");
    }
    return tip("Draw a card (Draw, or tap the deck). When you think your total is the lowest, call "
      + "Cambio instead.", "draw", "deck");
  }
  return null;
}
