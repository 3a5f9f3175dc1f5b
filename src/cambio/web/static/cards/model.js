// The card table's state and what can be read from it: the legal actions parsed, what a tap
// may choose or snap, and the names the table says. Pure functions of the state: the
// controller changes the state, the views and the tutorial read it through these.
import { seatName } from "../common.js";
import { t } from "../i18n.js";

/** @typedef {import("../messages.js").CardView} CardView */
/** @typedef {import("../messages.js").CardEvent} CardEvent */
/** @typedef {import("../messages.js").HintMessage} HintMessage */
/** @typedef {import("../messages.js").TableSummary} TableSummary */

/** @typedef {{ start: number, until: number }} Flash   a card shown for a while (ms since epoch) */
/** @typedef {{ kind: string, start: number, until: number }} Effect  a snap's result on a card */
/** @typedef {{ text: string, kind: string }} BannerText */
/** @typedef {BannerText & { start: number, until: number }} Banner */
/** @typedef {null | "o" | { opp: number }} KeyPrefix  another player's card, by keyboard */

/**
 * Everything the card table shows that is not the server's view alone.
 * @typedef {object} CardsState
 * @property {number | null} seat            our seat, null for a spectator
 * @property {TableSummary | null} summary
 * @property {CardView | null} view
 * @property {number} version
 * @property {CardEvent[]} log
 * @property {Record<string, Flash>} flash   address -> a card shown face up for a while
 * @property {Record<string, Effect>} fx     address -> a snap's result
 * @property {string[]} selected             cards chosen for a two-card action
 * @property {boolean} snapMode              a tap snaps (Snap… pressed)
 * @property {string[]} pendingSnaps         snaps sent, not answered yet
 * @property {{ ref: string | number, addr: string }[]} snapRefs
 * @property {string[]} sent                 actions sent that the log has not shown yet
 * @property {number | null} movedAt         the version our last move went out at, until an update or a refusal answers it
 * @property {(HintMessage & { version: number }) | null} hint
 * @property {number | null} hintAsked       the version a hint was asked for
 * @property {boolean} assist
 * @property {Banner | null} banner
 * @property {BannerText[]} bannerQueue
 * @property {number} cambioArmed            until when "Call Cambio" waits for a second tap
 * @property {boolean} logOpen
 * @property {KeyPrefix} keyPrefix
 * @property {unknown} rulesCat              GET /api/rules: the words for powers
 */

/** @typedef {{ text: string, verb: string, targets: string[] }} ParsedAction */

/**
 * A fresh table state.
 * @param {{ seat?: number | null, assist?: boolean, logOpen?: boolean }} [opts]
 * @returns {CardsState}
 */
export function initialState(opts = {}) {
  return {
    seat: opts.seat ?? null, summary: null, view: null, version: 0, log: [], flash: {}, fx: {},
    selected: [], snapMode: false, pendingSnaps: [], snapRefs: [], sent: [], movedAt: null, hint: null,
    hintAsked: null, assist: !!opts.assist, banner: null, bannerQueue: [], cambioArmed: 0,
    logOpen: opts.logOpen ?? true, keyPrefix: null, rulesCat: null,
  };
}

/**
 * An action text of view.legal, its verb and the card addresses it names.
 * @param {string} text
 * @param {number | null} seat
 * @returns {ParsedAction}
 */
export function parseAction(text, seat) {
  const [verb, ...args] = text.trim().split(/\s+/);
  // swap, give and exchange name slots of the actor's own grid.
  const own = verb === "swap" || verb === "give" || verb === "exchange";
  const targets = own ? args.map((a) => `${seat}.${a}`) : args;
  return { text, verb, targets };
}

/** @param {string} addr  "seat.slot" @returns {[number, number]} */
export function addrParts(addr) {
  const [s, i] = addr.split(".").map(Number);
  return [s, i];
}

/** @param {string[]} a @param {string[]} b */
export function sameMultiset(a, b) {
  if (a.length !== b.length) return false;
  const x = [...a].sort();
  const y = [...b].sort();
  return x.every((v, i) => v === y[i]);
}

/** @param {string[]} big @param {string[]} small */
export function containsAll(big, small) {
  const rest = [...big];
  for (const v of small) {
    const i = rest.indexOf(v);
    if (i < 0) return false;
    rest.splice(i, 1);
  }
  return true;
}

/** Our legal actions, parsed (none for a spectator). @param {CardsState} st */
export function legal(st) {
  return st.view && st.seat !== null ? st.view.legal.map((t) => parseAction(t, st.seat)) : [];
}

/** The actions chosen by tapping cards (snaps aside). @param {CardsState} st */
export function slotActions(st) {
  return legal(st).filter((a) => a.verb !== "snap" && a.targets.length > 0);
}

/** Address -> the snap action of that card. @param {CardsState} st */
export function snaps(st) {
  /** @type {Map<string, string>} */
  const out = new Map();
  for (const a of legal(st)) if (a.verb === "snap") out.set(a.targets[0], a.text);
  return out;
}

/** Whether a tap on a card snaps it straight away. @param {CardsState} st */
export function tapSnaps(st) {
  return snaps(st).size > 0 && (st.snapMode || slotActions(st).length === 0);
}

/** The cards a tap may add to the selection. @param {CardsState} st */
export function targetable(st) {
  /** @type {Set<string>} */
  const out = new Set();
  for (const a of slotActions(st)) {
    if (!containsAll(a.targets, st.selected)) continue;
    const rest = [...a.targets];
    for (const v of st.selected) rest.splice(rest.indexOf(v), 1);
    for (const v of rest) out.add(v);
  }
  return out;
}

/** The actions the chosen cards complete. @param {CardsState} st */
export function completed(st) {
  return slotActions(st).filter((a) => sameMultiset(a.targets, st.selected));
}

/** The seats from ours round the table (a spectator's from seat 0). @param {CardsState} st @param {CardView} view */
export function seatOrder(st, view) {
  const n = view.grids.length;
  const first = st.seat ?? 0;
  return Array.from({ length: n }, (_, k) => (first + k) % n);
}

/** "You", or the seat's name. @param {CardsState} st @param {number | null | undefined} seat */
export function nameOf(st, seat) {
  if (seat === st.seat && seat !== null && seat !== undefined) return t("common.you");
  return seatName(st.summary, seat);
}

/**
 * "your card 2", "Bo's card 1", or "their own card 1" when `actor` is its owner.
 * @param {CardsState} st @param {string} addr @param {number | null} [actor]
 */
export function slotName(st, addr, actor) {
  const [s, i] = addrParts(addr);
  // "Bo snapped their own card 1", never "Bo snapped Bo's card 1", which reads as two people.
  if (actor !== undefined && actor !== null && s === actor && s !== st.seat) return t("slot.theirOwn", { n: i + 1 });
  return s === st.seat ? t("slot.yours", { n: i + 1 }) : t("slot.someones", { n: i + 1, name: seatName(st.summary, s) });
}

/** Who made a move, in the log: "Your bot" for a move of our seat this page did not send
 * (the clock ran out, or the seat is away), so the log never says "You" did it.
 * @param {CardsState} st @param {CardEvent} ev */
export function actorName(st, ev) {
  if (ev.seat === st.seat && ev.seat !== null && ev.seat !== undefined && ev.bot) return t("log.yourBot");
  return nameOf(st, ev.seat);
}

/** Whose card was just snapped away (they receive the card given). @param {CardView} view */
export function giveTo(view) {
  return view.last_snap ? Number(view.last_snap.slot.split(".")[0]) : null;
}

/** The top of the pile, or null. @param {CardView} view */
export function pileTop(view) {
  return view.discard.length ? view.discard[view.discard.length - 1] : null;
}
