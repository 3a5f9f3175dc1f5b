// Cards travel, so the eye follows what moved: after each move a copy of the card flies from where it
// was to where it went (deck -> hand, hand -> grid or pile, a switch between players, a snap
// to the pile, a card given, a penalty card from the deck), so a fast bot move can be
// followed. The table itself is already drawn in its new state; the flying copies sit in a
// layer above it, take no taps, and are gone after the flight.
//
// A flying card shows a face only when that card is public in the move's event (the card
// taken from or put on the pile, a snapped card); every other flight is a card back, so no
// animation ever shows a face the page would not show anyway. The copies carry no data-code.
// With prefers-reduced-motion nothing flies.
import { h } from "./common.js";
import { cardEl, isCode } from "./cardface.js";

const FLIGHT_MS = 420;
const REDUCED = "(prefers-reduced-motion: reduce)";

/** @typedef {import("./messages.js").CardView} CardView */
/** @typedef {import("./messages.js").CardEvent} CardEvent */
/** @typedef {{ from: string, to: string, face: string | null }} Flight */

export function motionAllowed() {
  return !matchMedia(REDUCED).matches;
}

const DECK = "#deck";
const PILE = "#pile";
const HAND = ".held-box .card";
const slot = (/** @type {string} */ addr) => `.card[data-addr="${addr}"]`;

/** Slots that hold a card now and held none (or did not exist) before.
 * @param {CardView} prev @param {CardView} view @param {number} seat @returns {string[]} */
function newlyFilled(prev, view, seat) {
  const before = prev.grids[seat] || [];
  return (view.grids[seat] || []).map((c, i) => (c !== null && (i >= before.length || before[i] === null) ? `${seat}.${i}` : null))
    .filter((a) => a !== null);
}

/** The flights of one event: [{from, to, face}] with selectors, face a public code or null. */
/** @param {CardEvent | null | undefined} event @param {CardView | null} prev @param {CardView} view
 * @returns {Flight[]} */
export function flightsOf(event, prev, view) {
  if (!event || typeof event.action !== "string" || !prev || !view) return [];
  const [verb, a, b] = event.action.split(" ");
  const who = /** @type {number} */ (event.seat);
  const pub = (/** @type {unknown} */ code) => (isCode(code) ? code : null);
  switch (verb) {
    case "draw": return [{ from: DECK, to: HAND, face: null }];
    case "take": return [{ from: PILE, to: HAND, face: pub(event.card) }];
    case "swap": return [
      { from: HAND, to: slot(`${who}.${a}`), face: null },
      { from: slot(`${who}.${a}`), to: PILE, face: pub(event.discarded) }];
    case "discard": return [{ from: HAND, to: PILE, face: pub(event.discarded) }];
    case "switch": return [{ from: slot(a), to: slot(b), face: null }, { from: slot(b), to: slot(a), face: null }];
    case "snap":
      if (event.right) return [{ from: slot(a), to: PILE, face: pub(event.card) }];
      return newlyFilled(prev, view, who).map((addr) => ({ from: DECK, to: slot(addr), face: null }));
    case "give": {
      const to = view.grids.flatMap((_, s) => (s === who ? [] : newlyFilled(prev, view, s)));
      return to.slice(0, 1).map((addr) => ({ from: slot(`${who}.${a}`), to: slot(addr), face: null }));
    }
    default: return [];
  }
}

/** Before the table is redrawn: where each flight starts (the boxes of the old table). */
/** @param {HTMLElement} root @param {CardEvent | null | undefined} event @param {CardView | null} prev
 * @param {CardView} view @returns {(Flight & { start: DOMRect })[]} */
export function planFlights(root, event, prev, view) {
  if (!motionAllowed()) return [];
  return flightsOf(event, prev, view).map((f) => {
    const el = root.querySelector(f.from);
    return el ? { ...f, start: el.getBoundingClientRect() } : null;
  }).filter((f) => f !== null && f.start.width > 0).map((f) => /** @type {Flight & { start: DOMRect }} */ (f));
}

function layer() {
  let el = document.getElementById("motion-layer");
  if (!el) {
    el = h("div.motion-layer", { id: "motion-layer", "aria-hidden": "true" });
    document.body.append(el);
  }
  return el;
}

/** After the table is redrawn: fly a copy of each card from its start to its new place.
 * @param {HTMLElement} root @param {(Flight & { start: DOMRect })[]} flights */
export function fly(root, flights) {
  for (const f of flights) {
    const target = root.querySelector(f.to);
    if (!target) continue;
    const end = target.getBoundingClientRect();
    const s = f.start;
    if (!end.width || (Math.abs(end.left - s.left) < 2 && Math.abs(end.top - s.top) < 2)) continue;
    const ghost = cardEl(f.face || "?");
    delete ghost.dataset.code;                 // a copy in flight is not a card of the table
    ghost.classList.add("ghost-card");
    if (f.face) ghost.dataset.ghost = "face";
    ghost.setAttribute("aria-hidden", "true");
    ghost.removeAttribute("aria-label");
    Object.assign(ghost.style, {
      left: `${s.left}px`, top: `${s.top}px`, width: `${s.width}px`, height: `${s.height}px`,
    });
    ghost.style.setProperty("--card-w", `${s.width}px`);
    layer().append(ghost);
    const dx = end.left - s.left;
    const dy = end.top - s.top;
    const anim = ghost.animate([
      { transform: "translate(0, 0) scale(1, 1)" },
      { transform: `translate(${dx}px, ${dy}px) scale(${end.width / s.width}, ${end.height / s.height})` },
    ], { duration: FLIGHT_MS, easing: "cubic-bezier(.2,.7,.2,1)" });
    const done = () => ghost.remove();
    anim.onfinish = done;
    anim.oncancel = done;
    setTimeout(done, FLIGHT_MS + 500);        // a background tab may never finish it
  }
}
