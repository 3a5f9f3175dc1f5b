// Keyboard play: every decision has a key (KEYS, listed by `?`); a card is its number
// (yours) or O, the player's place (1 = the first other player), then its number. keyCommand
// is pure: a key and the table's state give a command; the effects layer carries it out
// (a command "click" presses the decision's own button, so a key does exactly what a tap does).
import { h } from "../common.js";
import { seatOrder } from "./model.js";
import { t } from "../i18n.js";

/** @typedef {import("./model.js").CardsState} CardsState */
/** @typedef {import("./controller.js").Intent} Intent */

/** The shortcuts (the `?` overlay lists them). */
export const KEYS = [
  { key: "d", label: "D", action: "draw", what: "keys.draw" },
  { key: "t", label: "T", action: "take", what: "keys.take" },
  { key: "x", label: "X", action: "discard", what: "keys.discard" },
  { key: "c", label: "C C", action: "cambio", what: "keys.cambio" },
  { key: "1", label: "1–9", what: "keys.own" },
  { key: "o", label: "O 1 2", what: "keys.other" },
  { key: "Enter", label: "Enter", what: "keys.confirm" },
  { key: "s", label: "S 1–9", what: "keys.snap" },
  { key: "w", label: "W", action: "switch", what: "keys.switch" },
  { key: "k", label: "K", action: "keep", what: "keys.keep" },
  { key: "n", label: "N", action: "skip", what: "keys.skip" },
  { key: "p", label: "P", action: "pass", what: "keys.pass" },
  { key: "h", label: "H", what: "keys.hint" },
  { key: "Escape", label: "Esc", what: "keys.escape" },
  { key: "?", label: "?", what: "keys.help" },
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
  return h("div.kbd-help", { id: "kbd-help", role: "dialog", "aria-label": t("view.shortcuts"), hidden: true },
    h("div.kbd-box", null,
      h("h2", null, t("view.shortcuts")),
      h("table", null, h("tbody", null, KEYS.map((x) => h("tr", null, h("td", null, h("kbd", null, x.label)), h("td", null, t(`keys.${x.what.slice(5)}`)))))),
      h("button.primary", { type: "button", id: "kbd-close", onclick: onClose }, t("keys.close"))));
}
