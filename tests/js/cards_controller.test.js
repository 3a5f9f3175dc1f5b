// The card table's controller, transition by transition: the server's messages, taps,
// buttons and time. Pure functions: no DOM, no socket, the time an argument.
import "./dom.js";
import { test } from "node:test";
import assert from "node:assert/strict";
import * as ctl from "../../src/cambio/web/static/cards/controller.js";
import { initialState, snaps, tapSnaps, targetable } from "../../src/cambio/web/static/cards/model.js";
import { summary, view } from "./fixtures.js";

const T = 1_000_000;   // a time, in ms

/** Ann's table with `v` dealt (version 3, not a fresh deal). @returns {CardsState} */
function seated(v = view(), extra = {}) {
  const st = { ...initialState({ seat: 0 }), summary: summary(), ...extra };
  return ctl.onState(st, { version: 3, view: v, log: [] }, T).state;
}

/** @typedef {import("../../src/cambio/web/static/cards/model.js").CardsState} CardsState */

/** Tap the cards one after another, collecting what was sent.
 * @param {CardsState} st @param {...string} addrs */
function taps(st, ...addrs) {
  /** @type {string[]} */
  const sent = [];
  for (const addr of addrs) {
    const step = ctl.handle(st, { type: "tap", addr }, T);
    st = step.state;
    sent.push(...step.send);
  }
  return { st, sent };
}

test("a fresh deal shows every card the view shows for the opening peek", () => {
  const { state, scrollTop } = ctl.onState(initialState({ seat: 0 }), { version: 0, view: view(), log: [] }, T);
  assert.deepEqual(Object.keys(state.flash).sort(), ["0.2", "0.3"]);
  assert.equal(state.flash["0.2"].until, T + ctl.OPENING_MS);
  assert.equal(scrollTop, false);
});

test("a resync replaces the log and drops the choice and pending snaps", () => {
  let st = seated(view({ legal: ["snap 0.2", "pass"] }));
  st = ctl.sent({ ...st, selected: ["0.1"] }, "snap 0.2", "a1");
  assert.deepEqual(st.pendingSnaps, ["0.2"]);
  const { state } = ctl.onState(st, { version: 9, view: view(), log: [{ seat: 1, action: "draw" }] }, T);
  assert.deepEqual([state.pendingSnaps, state.snapRefs, state.selected, state.snapMode], [[], [], [], false]);
  assert.deepEqual(state.log, [{ seat: 1, action: "draw" }]);
  assert.equal(state.version, 9);
});

test("a resync of the same game flashes the cards that changed; a new deal after a reveal scrolls up", () => {
  const st = seated(view({ phase: "round_over", legal: [] }));
  const next = view({ grids: [["?", "9H", "3D", "4C"], ["?", "?", "?", "?"]] });
  const { state, scrollTop } = ctl.onState(st, { version: 4, view: next, log: [] }, T + 10);
  assert.ok(state.flash["0.1"]);
  assert.equal(scrollTop, true);
});

test("an update logs the event, flashes a card seen, and marks a move of ours we did not send", () => {
  let st = seated();
  st = ctl.sent(st, "draw", "a1");
  const drew = ctl.onUpdate(st, { version: 4, event: { seat: 0, action: "draw", card: "KH" },
    view: view({ phase: "drawn", held: "KH", legal: ["swap 0", "discard"] }) }, T);
  assert.deepEqual(drew.log.at(-1), { seat: 0, action: "draw", card: "KH" });
  assert.deepEqual(drew.sent, []);
  const bot = ctl.onUpdate(drew, { version: 5, event: { seat: 0, action: "discard", discarded: "KH" },
    view: view({ discard: ["5S", "KH"], actor: 1, turn: 1, legal: [] }) }, T);
  assert.equal(bot.log.at(-1)?.bot, true);
  const peek = ctl.onUpdate(bot, { version: 6, event: { seat: 0, action: "peek 0.0", card: "2S" },
    view: view({ grids: [["2S", "?", "3D", "4C"], ["?", "?", "?", "?"]] }) }, T + 5);
  assert.equal(peek.flash["0.0"].until, T + 5 + ctl.FLASH_MS);
});

test("draw, take and discard are sent as they are; sending clears the choice", () => {
  const st = seated();
  assert.deepEqual(ctl.handle(st, { type: "send", action: "draw" }, T).send, ["draw"]);
  assert.deepEqual(ctl.handle(st, { type: "send", action: "take" }, T).send, ["take"]);
  const after = ctl.sent({ ...st, selected: ["0.1"] }, "discard", "a2");
  assert.deepEqual([after.selected, after.sent], [[], ["discard"]]);
  // Not sent (no connection): nothing is remembered as ours.
  assert.deepEqual(ctl.sent(st, "draw", null).sent, []);
});

test("a swap: a tap chooses the card, a second tap on it swaps", () => {
  const st = seated(view({ phase: "drawn", held: "AH", legal: ["swap 0", "swap 1", "swap 2", "swap 3", "discard"] }));
  assert.deepEqual(targetable(st), new Set(["0.0", "0.1", "0.2", "0.3"]));
  const first = taps(st, "0.1");
  assert.deepEqual([first.st.selected, first.sent], [["0.1"], []]);
  assert.deepEqual(taps(first.st, "0.1").sent, ["swap 1"]);
  // Another card instead: the choice moves to it.
  assert.deepEqual(taps(first.st, "0.3").st.selected, ["0.3"]);
  // Cancel drops it.
  assert.deepEqual(ctl.handle(first.st, { type: "cancel" }, T).state.selected, []);
});

test("a peek: one card, a tap chooses, a second confirms", () => {
  const st = seated(view({ phase: "power", power: "peek_other", legal: ["peek 1.0", "peek 1.1", "peek 1.2", "peek 1.3"] }));
  assert.deepEqual(taps(st, "1.2", "1.2").sent, ["peek 1.2"]);
  assert.deepEqual(taps(st, "0.2").st.selected, []);    // not a card the power may look at
});

test("each two-card power: look, switch and exchange take a pair, in either order", () => {
  const pairs = (/** @type {string} */ verb) => ["0.0", "0.1"].flatMap((a) => ["1.0", "1.1"].map((b) => `${verb} ${a} ${b}`));
  for (const verb of ["look", "switch"]) {
    const st = seated(view({ phase: "power", legal: pairs(verb) }));
    const one = taps(st, "1.1");
    assert.deepEqual(one.st.selected, ["1.1"]);
    assert.deepEqual(targetable(one.st), new Set(["0.0", "0.1"]));
    const both = taps(one.st, "0.0");
    assert.deepEqual([both.st.selected, both.sent], [["1.1", "0.0"], []]);
    assert.deepEqual(taps(both.st, "0.0").sent, [`${verb} 0.0 1.1`]);   // the second tap on the last card
    // A tap on the first card chosen unchooses it.
    assert.deepEqual(taps(both.st, "1.1").st.selected, ["0.0"]);
  }
  const ex = seated(view({ phase: "drawn", held: "4D", legal: ["exchange 0 1", "exchange 2 3", "swap 0", "discard"] }));
  assert.deepEqual(taps(ex, "0.2", "0.3", "0.3").sent, ["exchange 2 3"]);
});

test("a king's decision offers switch or keep; keep is sent as it is", () => {
  const st = seated(view({ phase: "king_decide", legal: ["switch 0.0 1.1", "keep"], looked: ["0.0", "1.1"] }));
  assert.deepEqual(ctl.handle(st, { type: "send", action: "keep" }, T).send, ["keep"]);
  assert.deepEqual(taps(st, "0.0", "1.1", "1.1").sent, ["switch 0.0 1.1"]);
});

test("a snap: with other moves a tap chooses, Snap… makes a tap snap; the ref is kept for the answer", () => {
  const st = seated(view({ phase: "drawn", held: "9S", legal: ["swap 0", "swap 3", "discard", "snap 0.3", "snap 1.0"] }));
  assert.equal(tapSnaps(st), false);
  assert.deepEqual(taps(st, "0.3").sent, []);             // a tap chooses the card to swap
  assert.deepEqual([...snaps(st).keys()], ["0.3", "1.0"]);
  const armed = ctl.handle(st, { type: "snap-mode" }, T).state;
  assert.equal(tapSnaps(armed), true);
  const step = ctl.handle(armed, { type: "tap", addr: "0.3" }, T);
  assert.deepEqual(step.send, ["snap 0.3"]);
  const sent = ctl.sent(step.state, "snap 0.3", "a7");
  assert.deepEqual([sent.pendingSnaps, sent.snapRefs, sent.snapMode], [["0.3"], [{ ref: "a7", addr: "0.3" }], false]);
  // The S key arms snapping only when a snap is legal.
  assert.equal(ctl.handle(st, { type: "snap-key" }, T).state.snapMode, true);
  assert.equal(ctl.handle(seated(), { type: "snap-key" }, T).state.snapMode, false);
});

test("with nothing else to do, a tap snaps at once", () => {
  const st = seated(view({ actor: 1, turn: 1, legal: ["snap 0.3"] }));
  assert.deepEqual(taps(st, "0.3").sent, ["snap 0.3"]);
  assert.deepEqual(taps(st, "0.2").sent, []);
});

test("a snap's answer: the card marked, the banner, the pending snap cleared", () => {
  let st = seated(view({ legal: ["snap 0.3"] }));
  st = ctl.sent(st, "snap 0.3", "a1");
  const right = ctl.onUpdate(st, { version: 4, event: { seat: 0, action: "snap 0.3", card: "4C", right: true },
    view: view({ discard: ["5S", "4C"], grids: [["?", "?", "3D", null], ["?", "?", "?", "?"]], legal: ["draw"] }) }, T);
  assert.deepEqual([right.pendingSnaps, right.snapRefs], [[], []]);
  assert.equal(right.fx["0.3"].kind, "snap-right");
  assert.equal(right.banner?.text, "You snapped your card 4: 4♣ — right!");
  const wrong = ctl.onUpdate(seated(), { version: 4, event: { seat: 1, action: "snap 1.2", card: "9C", right: false },
    view: view() }, T);
  assert.equal(wrong.banner?.text, "Bo snapped their own card 3: 9♣ — wrong, penalty card");
  assert.equal(wrong.banner?.kind, "bad");
});

test("a snap that lost the race says who was first; another refusal keeps the generic words", () => {
  let st = seated(view({ legal: ["snap 0.3"] }));
  st = ctl.sent(st, "snap 0.3", "a1");
  st = { ...st, log: [{ seat: 1, action: "snap 0.3", card: "4C", right: true }] };
  const lost = ctl.rejected(st, { code: "illegal", message: "x", ref: "a1" });
  assert.equal(lost.text, "Too late — Bo snapped your card 4 first.");
  assert.deepEqual([lost.state.pendingSnaps, lost.state.snapRefs], [[], []]);
  const gone = ctl.rejected({ ...st, log: [] }, { code: "illegal", ref: "a1" });
  assert.equal(gone.text, "Too late — that card can no longer be snapped.");
  assert.equal(ctl.rejected(st, { code: "stale", ref: "a1" }).text, null);
  assert.equal(ctl.rejected(st, { code: "illegal", ref: "a9" }).text, null);
});

test("a give: after a right snap of another's card, a tap chooses one of ours, a second gives it", () => {
  const st = seated(view({ phase: "give", last_snap: { slot: "1.2" }, legal: ["give 0", "give 1", "give 2", "give 3"] }));
  assert.deepEqual(taps(st, "0.1", "0.1").sent, ["give 1"]);
});

test("Cambio takes two taps within the arming time", () => {
  const st = seated();
  const armed = ctl.handle(st, { type: "cambio" }, T);
  assert.deepEqual([armed.send, armed.state.cambioArmed], [[], T + ctl.CAMBIO_ARM_MS]);
  assert.deepEqual(ctl.handle(armed.state, { type: "cambio" }, T + 100).send, ["cambio"]);
  assert.deepEqual(ctl.handle(armed.state, { type: "cambio" }, T + ctl.CAMBIO_ARM_MS + 1).send, []);
  assert.equal(ctl.wakeAt(armed.state, T), T + ctl.CAMBIO_ARM_MS);
  const called = ctl.onUpdate(st, { version: 4, event: { seat: 1, action: "cambio" }, view: view({ caller: 1 }) }, T);
  assert.equal(called.banner?.text, "Bo called Cambio!");
});

test("a choice no longer legal after an update is dropped, and so is snap mode", () => {
  let st = seated(view({ legal: ["look 0.0 1.1", "look 0.1 1.1", "snap 1.3"] }));
  st = { ...taps(st, "0.0").st, snapMode: true };
  const next = ctl.onUpdate(st, { version: 4, event: { seat: 1, action: "draw" }, view: view({ actor: 1, legal: [] }) }, T);
  assert.deepEqual([next.selected, next.snapMode], [[], false]);
});

test("Escape: the key prefix first, then the choice or snap mode, then the hint", () => {
  /** @type {CardsState} */
  let st = { ...seated(), keyPrefix: "o", selected: ["0.1"] };
  st = ctl.handle(st, { type: "escape" }, T).state;
  assert.deepEqual([st.keyPrefix, st.selected], [null, ["0.1"]]);
  st = ctl.handle({ ...st, hint: { action: "draw", version: 3 } }, { type: "escape" }, T).state;
  assert.deepEqual(st.selected, []);
  assert.ok(st.hint);
  st = ctl.handle(st, { type: "escape" }, T).state;
  assert.equal(st.hint, null);
});

test("time passing ends flashes and snap marks, and wakes the table when the next one ends", () => {
  let st = seated();
  st = { ...st, flash: { "0.2": { start: T, until: T + 100 } }, fx: { "1.0": { kind: "snap-right", start: T, until: T + 50 } } };
  assert.equal(ctl.wakeAt(st, T), T + 50);
  const later = ctl.tick(st, T + 60);
  assert.deepEqual([Object.keys(later.flash), Object.keys(later.fx)], [["0.2"], []]);
  assert.equal(ctl.wakeAt(ctl.tick(st, T + 200), T + 200), Infinity);
});

test("assist, the log's state and the hint request are the controller's", () => {
  const st = seated();
  assert.equal(ctl.handle(st, { type: "assist", on: true }, T).state.assist, true);
  assert.equal(ctl.handle(st, { type: "log", open: false }, T).state.logOpen, false);
  const ask = ctl.handle(st, { type: "ask-hint" }, T);
  assert.deepEqual([ask.askHint, ask.state.hintAsked], [true, 3]);
  assert.deepEqual(ctl.handle(st, /** @type {any} */ ({ type: "unknown" }), T).send, []);
});
