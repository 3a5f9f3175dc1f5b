// Keyboard play: which key does what, for every path of the `?` list.
import "./dom.js";
import { test } from "node:test";
import assert from "node:assert/strict";
import { KEYS, helpOverlay, keyCommand } from "../../src/cambio/web/static/cards/keyboard.js";
import { initialState } from "../../src/cambio/web/static/cards/model.js";
import { summary, view } from "./fixtures.js";

/** @typedef {import("../../src/cambio/web/static/cards/model.js").CardsState} CardsState */

/** @param {Partial<CardsState>} [extra] @returns {CardsState} */
function st(extra = {}) {
  return { ...initialState({ seat: 1 }), summary: summary(), view: view({ actor: 1 }), ...extra };
}

test("a digit taps that card of ours; O, a player, a digit taps another's", () => {
  assert.deepEqual(keyCommand(st(), { key: "3" }),
    { prefix: null, command: { type: "intent", intent: { type: "tap", addr: "1.2" } }, prevent: true });
  const o = keyCommand(st(), { key: "O" });
  assert.deepEqual(o, { prefix: "o", command: null, prevent: false });
  const player = keyCommand(st({ keyPrefix: "o" }), { key: "1" });
  assert.deepEqual(player?.prefix, { opp: 1 });
  // Seat 1's first other player is seat 0.
  assert.deepEqual(keyCommand(st({ keyPrefix: { opp: 1 } }), { key: "2" })?.command,
    { type: "intent", intent: { type: "tap", addr: "0.1" } });
  // No such player: the prefix is dropped and nothing is tapped.
  assert.deepEqual(keyCommand(st({ keyPrefix: { opp: 5 } }), { key: "2" }), { prefix: null, command: null, prevent: true });
});

test("every listed decision key presses its button; Enter the confirm button", () => {
  for (const k of KEYS.filter((x) => x.action)) {
    assert.deepEqual(keyCommand(st(), { key: k.key })?.command,
      { type: "click", selector: `.actions button[data-action="${k.action}"]` });
  }
  assert.deepEqual(keyCommand(st(), { key: "Enter" })?.command,
    { type: "click", selector: ".actions button[data-action^='confirm-']" });
  // On a focused button Enter is the button's own.
  assert.deepEqual(keyCommand(st(), { key: "Enter", onButton: true }), { prefix: null, command: null, prevent: false });
  assert.deepEqual(keyCommand(st(), { key: "h" })?.command, { type: "click", selector: "#hint" });
  assert.deepEqual(keyCommand(st(), { key: "s" })?.command, { type: "intent", intent: { type: "snap-key" } });
});

test("? toggles the list, Escape closes it or cancels; keys in a text field or with Ctrl are the browser's", () => {
  assert.deepEqual(keyCommand(st(), { key: "?" })?.command, { type: "help" });
  assert.deepEqual(keyCommand(st(), { key: "Escape", helpOpen: true })?.command, { type: "close-help" });
  assert.deepEqual(keyCommand(st(), { key: "Escape" })?.command, { type: "intent", intent: { type: "escape" } });
  assert.equal(keyCommand(st(), { key: "d", editable: true }), null);
  assert.equal(keyCommand(st(), { key: "d", ctrl: true }), null);
  // A spectator, or no view yet: only ? and Escape.
  assert.equal(keyCommand(st({ seat: null }), { key: "d" }), null);
  assert.equal(keyCommand(st({ view: null }), { key: "1" }), null);
  // A key that is not a shortcut drops a pending O.
  assert.deepEqual(keyCommand(st({ keyPrefix: "o" }), { key: "z" }), { prefix: null, command: null, prevent: false });
});

test("the list shows every shortcut and closes by its button", () => {
  let closed = 0;
  const box = helpOverlay(() => { closed += 1; });
  assert.equal(box.querySelectorAll("tr").length, KEYS.length);
  assert.ok(box.hasAttribute("hidden"));
  /** @type {HTMLElement} */ (box.querySelector("#kbd-close")).click();
  assert.equal(closed, 1);
});
