// @ts-check
// The card game's guided first round, so a newcomer learns by playing: what to do next, in
// the table's words, and what the table should outline for it (card addresses, "deck",
// "pile", a button's action).
//
// The tutorial table is dealt from a scripted deck against the tutor bot, which draws and
// discards every turn (server/tutorial.py): every newcomer swaps a low card in, snaps a card
// of her own, uses each power (a peek at her card and at the bot's, a switch, the king's
// look), snaps the bot's card and gives one back, makes a wrong snap and takes its penalty,
// and calls Cambio. The script relies on that for the order in which things come up, never
// for a card: every card it names is one this seat's view shows (its own cards it has seen,
// the bot's it has seen, the pile, the card it holds), and each tip follows what is on the
// table, so a round that goes another way is still guided. The rules are the engine's: this
// module only reads the seat's legal actions.
import { cardText, isCode } from "./cardface.js";
import { t } from "./i18n.js";
import { effectiveRules, powerField } from "./rules.js";
import {
  giveTo, legal, nameOf, slotActions, snaps, tapSnaps, targetable,
} from "./cards/model.js";

/** @typedef {import("./cards/model.js").CardsState} CardsState */
/** @typedef {import("./messages.js").CardView} CardView */
/** @typedef {import("./messages.js").TableRules} TableRules */
/** @typedef {{ text: string, marks: Set<string> }} Tip */

const GUESS_AFTER_TURNS = 4;   // your turns before the tutorial shows what a wrong snap costs
const CAMBIO_AFTER_TURNS = 6;  // ... and before it suggests Cambio even without that lesson

const rankOf = (/** @type {unknown} */ code) => (isCode(code) ? code[0] : null);

/** A card's points under the table's rules (the catalogue's preset values and overrides).
 * @param {unknown} cat @param {TableRules | undefined} rules @param {unknown} code
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

/** Every card's points under the table's rules, in one line.
 * @param {unknown} cat @param {TableRules | undefined} rules */
export function valuesText(cat, rules) {
  const v = (/** @type {string} */ code) => cardValue(cat, rules, code) ?? 0;
  return t("tutorial.cards.values", {
    ace: v("AS"), jack: v("JS"), queen: v("QS"), black: v("KS"), red: v("KH"),
  });
}

/** What discarding `code` lets one do under the rules, in words; null without a power.
 * @param {unknown} cat @param {TableRules | undefined} rules @param {unknown} code */
function powerWords(cat, rules, code) {
  const field = isCode(code) ? powerField(code) : null;
  if (!field) return null;
  const r = effectiveRules(cat, rules);
  const power = field === "power_jack_queen" && rankOf(code) === "Q" ? r.power_queen ?? r[field] : r[field];
  return power && power !== "none" ? t(`power.${power}`) : null;
}

/** @param {string} addr */
const slotNo = (addr) => Number(addr.split(".")[1]) + 1;
/** @param {string} addr */
const seatOf = (addr) => Number(addr.split(".")[0]);

/** How many turns this seat has begun (a draw or a take in the log). @param {CardsState} st */
function turnsTaken(st) {
  return st.log.filter((ev) => ev && ev.seat === st.seat
    && (ev.action === "draw" || ev.action === "take")).length;
}

/** @param {CardsState} st @param {import("./messages.js").CardEvent} ev */
const wrongSnap = (st, ev) => Boolean(ev) && ev.seat === st.seat && typeof ev.action === "string"
  && ev.action.startsWith("snap") && ev.right === false;

/** Whether this seat has made a wrong snap this round (and so seen its penalty).
 * @param {CardsState} st */
function wrongSnapMade(st) {
  return st.log.some((ev) => wrongSnap(st, ev));
}

/** A tip: its text and the marks it outlines. @param {string} key @param {Record<string, string | number>} params
 * @param {...string} marks @returns {Tip} */
function tip(key, params, ...marks) {
  return { text: t(`tutorial.cards.${key}`, params), marks: new Set(marks) };
}

/** "Tap" or "Press Snap…, then tap": how a snap is made now. @param {CardsState} st */
const snapHow = (st) => t(tapSnaps(st) ? "tutorial.cards.snap_tap" : "tutorial.cards.snap_press");

/** A right snap this seat can make now: the pile's top card matches a card it has seen.
 * @param {CardsState} st @param {CardView} view @returns {Tip | null} */
function snapTip(st, view) {
  const top = view.discard.length ? view.discard[view.discard.length - 1] : null;
  const open = snaps(st);
  if (!top || !open.size) return null;
  const me = /** @type {number} */ (st.seat);
  const known = [...open.keys()].filter((a) => {
    const card = (view.grids[seatOf(a)] || [])[slotNo(a) - 1];
    return isCode(card) && rankOf(card) === rankOf(top);
  });
  const own = known.find((a) => seatOf(a) === me);
  const addr = own ?? known[0];
  if (!addr) return null;
  const card = cardText(view.grids[seatOf(addr)][slotNo(addr) - 1]);
  const params = { top: cardText(top), slot: slotNo(addr), card, how: snapHow(st), name: nameOf(st, seatOf(addr)) };
  return tip(own ? "snap_own" : "snap_other", params, addr, "snap-mode");
}

/** The lesson of a wrong snap: a guess at a card nobody has shown you, once, at the start
 * of a turn when no card you know matches the pile.
 * @param {CardsState} st @param {CardView} view @returns {Tip | null} */
function guessTip(st, view) {
  const top = view.discard.length ? view.discard[view.discard.length - 1] : null;
  if (!top || wrongSnapMade(st) || turnsTaken(st) < GUESS_AFTER_TURNS) return null;
  const me = /** @type {number} */ (st.seat);
  const unseen = [...snaps(st).keys()].filter((a) => seatOf(a) !== me
    && (view.grids[seatOf(a)] || [])[slotNo(a) - 1] === "?");
  if (!unseen.length) return null;
  const addr = unseen[0];
  return tip("guess", { top: cardText(top), name: nameOf(st, seatOf(addr)), slot: slotNo(addr), how: snapHow(st) },
    addr, "snap-mode");
}

/** The tip while this seat holds a drawn (or taken) card.
 * @param {CardsState} st @param {CardView} view @param {Set<string>} verbs @returns {Tip} */
function holdingTip(st, view, verbs) {
  const me = /** @type {number} */ (st.seat);
  const cat = st.rulesCat;
  const grid = view.grids[me] || [];
  const held = view.held;
  const twin = grid.findIndex((c) => isCode(c) && rankOf(c) === rankOf(held));
  if (twin >= 0 && !view.held_from_pile && verbs.has("discard")) {
    return tip("twin", { card: cardText(held), slot: twin + 1, mine: cardText(grid[twin]) }, "discard", "pile");
  }
  const power = view.held_from_pile ? null : powerWords(cat, view.rules, held);
  if (power && verbs.has("discard")) return tip("power_card", { card: cardText(held), power }, "discard", "pile");
  const value = cardValue(cat, view.rules, held) ?? 0;
  let worst = -1;
  grid.forEach((c, i) => {
    const v = cardValue(cat, view.rules, c);
    if (v !== null && v > value && (worst < 0 || v > (cardValue(cat, view.rules, grid[worst]) ?? 0))) worst = i;
  });
  if (worst >= 0 && verbs.has("swap")) {
    const addr = `${me}.${worst}`;
    if (st.selected.includes(addr)) return tip("confirm_swap", { card: cardText(held), slot: worst + 1 }, "confirm-swap");
    const params = {
      card: cardText(held), value, slot: worst + 1, old: cardText(grid[worst]),
      oldValue: cardValue(cat, view.rules, grid[worst]) ?? 0, values: valuesText(cat, view.rules),
    };
    return tip("swap", params, addr);
  }
  return tip("discard_high", { card: cardText(held), value }, "discard", "pile");
}

/** The tip while this seat resolves a power. @param {CardsState} st @param {CardView} view
 * @param {Set<string>} verbs @returns {Tip | null} */
function powerTip(st, view, verbs) {
  const me = /** @type {number} */ (st.seat);
  const grid = view.grids[me] || [];
  const other = nameOf(st, (me + 1) % view.grids.length);
  const free = [...targetable(st)].filter((x) => !st.selected.includes(x));
  if (verbs.has("peek")) {
    const targets = slotActions(st).map((a) => a.targets[0]);
    if (targets.every((x) => seatOf(x) === me)) {
      const unseen = targets.filter((x) => grid[slotNo(x) - 1] === "?");
      return tip("peek_own", {}, ...(unseen.length ? unseen : targets.slice(0, 1)));
    }
    const theirs = targets.filter((x) => seatOf(x) !== me);
    return tip("peek_other", { name: other }, ...theirs.slice(0, 1));
  }
  if (verbs.has("look")) return tip(st.selected.length ? "look_second" : "look", {}, ...free.slice(0, 1));
  if (verbs.has("switch") && verbs.has("keep")) return tip("switch_or_keep", {}, "keep", "switch");
  if (verbs.has("switch")) {
    // Your cards are low on this deal: the harmless switch is two of the other player's.
    const theirs = free.filter((x) => seatOf(x) !== me);
    return tip(st.selected.length ? "switch_second" : "switch", { name: other }, ...(theirs.length ? theirs : free).slice(0, 1));
  }
  if (verbs.has("skip")) return tip("skip", {}, "skip");
  return null;
}

/** The tip while another seat plays. @param {CardsState} st @param {CardView} view @returns {Tip} */
function watchingTip(st, view) {
  const me = /** @type {number} */ (st.seat);
  const actor = nameOf(st, view.actor);
  if (view.caller === me) return tip("called", { name: actor });
  const top = view.discard.length ? view.discard[view.discard.length - 1] : null;
  const power = top && (view.phase === "power" || view.phase === "king_decide")
    ? powerWords(st.rulesCat, view.rules, top) : null;
  if (power) return tip("their_power", { name: actor, card: cardText(top), power });
  if (view.phase === "give") return tip("their_give", { name: actor });
  return tip("watch", { name: actor });
}

/** The tip for what is on the table now: {text, marks} (marks: a Set of what to outline).
 * Short: the status line keeps three lines on a laptop, four on a phone.
 * @param {CardsState} st @param {CardView} view @returns {Tip | null} */
export function cardsCoach(st, view) {
  if (st.seat === null) return null;
  // A move of ours is on its way: the view is still the one it was chosen from, so its tip
  // would be the one just followed, shown again; a second tap on it could land, once the
  // answer came, as a snap nobody meant. No tip until the server answers.
  if (st.movedAt !== null && st.movedAt === st.version) return null;
  const me = st.seat;
  const verbs = new Set(legal(st).map((a) => a.verb));
  const grid = view.grids[me] || [];
  const cat = st.rulesCat;

  if (view.phase === "round_over") return tip((view.winners || []).includes(me) ? "won" : "over", {});
  const snap = snapTip(st, view);
  if (snap) return snap;
  // Cards chosen for a move (a give, a power): the button that names it sends it.
  const done = st.selected.length
    ? slotActions(st).find((a) => a.targets.length === st.selected.length
      && a.targets.every((x) => st.selected.includes(x)))
    : null;
  if (done) return tip("confirm", {}, `confirm-${done.verb}`);
  if (verbs.has("give")) {
    const give = slotActions(st).filter((a) => a.verb === "give").map((a) => a.targets[0]);
    const worth = (/** @type {string} */ x) => cardValue(cat, view.rules, grid[slotNo(x) - 1]) ?? 5;
    const high = give.reduce((best, x) => (worth(x) > worth(best) ? x : best), give[0]);
    return tip("give", { name: nameOf(st, giveTo(view)) }, high);
  }
  if (view.actor !== me) return watchingTip(st, view);
  if (verbs.has("swap") || (verbs.has("discard") && isCode(view.held))) return holdingTip(st, view, verbs);
  const power = powerTip(st, view, verbs);
  if (power) return power;
  if (!verbs.has("draw")) return null;

  // The start of a turn.
  if (view.caller !== null && view.caller !== undefined) return tip("last_turn", { name: nameOf(st, view.caller) }, "draw", "deck");
  if (st.version === 0) {
    const seen = grid.map((c, i) => (isCode(c) ? t("tutorial.cards.seen_card", { slot: i + 1, card: cardText(c) }) : null))
      .filter(Boolean).join(", ");
    return tip("opening", { seen }, "draw", "deck");
  }
  const mine = st.log.filter((ev) => ev && ev.seat === me);
  const last = mine[mine.length - 1];
  if (last && wrongSnap(st, last)) return tip("penalty", { card: cardText(last.card) }, "draw", "deck");
  const guess = guessTip(st, view);
  if (guess) return guess;
  const taught = wrongSnapMade(st) && turnsTaken(st) > GUESS_AFTER_TURNS;
  if (verbs.has("cambio") && (taught || turnsTaken(st) >= CAMBIO_AFTER_TURNS)) {
    const sum = grid.filter((c) => isCode(c)).reduce((s, c) => s + (cardValue(cat, view.rules, c) ?? 0), 0);
    const unseen = grid.filter((c) => c === "?").length;
    return tip("cambio", { sum, count: unseen, name: nameOf(st, (me + 1) % view.grids.length) }, "cambio");
  }
  return tip("draw", {}, "draw", "deck");
}
