// Keyboard play: every decision has a key (KEYS, listed by `?`); a card is its number
// (yours) or O, the player's place (1 = the first other player), then its number. keyCommand
// is pure: a key and the table's state give a command; the effects layer carries it out
// (a command "click" presses the decision's own button, so a key does exactly what a tap does).
import { h } from "../common.js";
import { seatOrder } from "./model.js";

/** @typedef {import("./model.js").CardsState} CardsState */
/** @typedef {import("./controller.js").Intent} Intent */

/** The shortcuts (the `?` overlay lists them). */
export const KEYS = [
  { key: "d", label: "D", action: "draw", what: "Draw a card" },
  { key: "t", label: "T", action: "take", what: "Take the top of the pile" },
  { key: "x", label: "X", action: "discard", what: "Discard the card you hold" },
  { key: "c", label: "C C", action: "cambio", what: "Call Cambio (press twice)" },
  { key: "1", label: "1–9", what: "Your card with that number (swap, peek, give, snap…)" },
  { key: "o", label: "O 1 2", what: "Another player's card: O, the player (1 = the first after you), the card's number" },
  { key: "Enter", label: "Enter", what: "Confirm the cards chosen" },
  { key: "s", label: "S then a card", what: "Snap that card" },
  { key: "w", label: "W", action: "switch", what: "Switch the two cards looked at" },
  { key: "k", label: "K", action: "keep", what: "Keep them where they are" },
  { key: "n", label: "N", action: "skip", what: "Skip the power" },
  { key: "p", label: "P", action: "pass", what: "Pass" },
  { key: "h", label: "H", what: "Hint (assist mode)" },
  { key: "Escape", label: "Esc", what: "Cancel a choice, close this list" },
  { key: "?", label: "?", what: "Show or hide this list" },
];

/**
 * What a key does. `prefix`: the state's new key prefix (O, then a player). `command`:
 * "help" (toggle the list), "close-help", an intent for the controller, or a click on the
 * button matching `selector` in the action bar; `prevent`: the key is ours (no scrolling).
 * @typedef {{ type: "help" } | { type: "close-help" } | { type: "intent", intent: Intent }
 *   | { type: "click", selector: string }} KeyCommand
 * @typedef {{ prefix: import("./model.js").KeyPrefix, command: KeyCommand | null, prevent: boolean }} KeyResult
 */

/**
 * @param {CardsState} st
 * @param {{ key: string, ctrl?: boolean, editable?: boolean, onButton?: boolean, helpOpen?: boolean }} e
 *   the key (KeyboardEvent.key), a modifier held, the focus in a text field, on a button
 * @returns {KeyResult | null}  null: not ours, the browser keeps the key
 */
export function keyCommand(st, e) {
  if (e.ctrl || e.editable) return null;
  const k = e.key.length === 1 ? e.key.toLowerCase() : e.key;
  const prefix = st.keyPrefix;
  /** @param {KeyCommand | null} command @param {boolean} [prevent] @param {import("./model.js").KeyPrefix} [next] */
  const out = (command, prevent = false, next = prefix) => ({ prefix: next, command, prevent });
  if (k === "?") return out({ type: "help" }, true);
  if (k === "Escape") {
    if (e.helpOpen) return out({ type: "close-help" });
    return out({ type: "intent", intent: { type: "escape" } });
  }
  if (!st.view || st.seat === null) return null;
  if (/^[1-9]$/.test(k)) {
    const n = Number(k);
    if (prefix === "o") return out(null, true, { opp: n });
    const seats = seatOrder(st, st.view);
    const seat = prefix ? seats[prefix.opp] : seats[0];
    if (seat === undefined) return out(null, true, null);
    return out({ type: "intent", intent: { type: "tap", addr: `${seat}.${n - 1}` } }, true, null);
  }
  if (k === "o") return out(null, false, "o");
  if (k === "s") return out({ type: "intent", intent: { type: "snap-key" } }, false, null);
  if (k === "h") return out({ type: "click", selector: "#hint" }, false, null);
  if (k === "Enter") {
    if (e.onButton) return out(null, false, null);   // the focused button's own Enter
    return out({ type: "click", selector: ".actions button[data-action^='confirm-']" }, true, null);
  }
  const action = KEYS.find((x) => x.key === k && x.action);
  if (!action) return out(null, false, null);
  return out({ type: "click", selector: `.actions button[data-action="${action.action}"]` }, true, null);
}

/** The `?` overlay. @param {() => void} onClose */
export function helpOverlay(onClose) {
  return h("div.kbd-help", { id: "kbd-help", role: "dialog", "aria-label": "Keyboard shortcuts", hidden: true },
    h("div.kbd-box", null,
      h("h2", null, "Keyboard shortcuts"),
      h("table", null, h("tbody", null, KEYS.map((x) => h("tr", null, h("td", null, h("kbd", null, x.label)), h("td", null, x.what))))),
      h("button.primary", { type: "button", id: "kbd-close", onclick: onClose }, "Close (Esc)")));
}
