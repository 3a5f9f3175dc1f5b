// Assist mode's hints and the banners: what stands, in which words, what is outlined, and
// how long.
import "./dom.js";
import { test } from "node:test";
import assert from "node:assert/strict";
import * as ctl from "../../src/cambio/web/static/cards/controller.js";
import { actionWords, hintBusy, hintMarks, hintText, hintsOffered, liveHint } from "../../src/cambio/web/static/cards/hints.js";
import { BANNER_HOLD_MS, BANNER_MS, advanceBanner, bannerWake, showBanner } from "../../src/cambio/web/static/cards/banners.js";
import { initialState } from "../../src/cambio/web/static/cards/model.js";
import { summary, view } from "./fixtures.js";

/** @typedef {import("../../src/cambio/web/static/cards/model.js").CardsState} CardsState */
const T = 5_000_000;

/** @param {Partial<import("../../src/cambio/web/static/messages.js").CardView>} [v] @returns {CardsState} */
function st(v = {}) {
  return { ...initialState({ seat: 0, assist: true }), summary: summary(), version: 7, view: view(v) };
}

test("a hint stands in the table's words while its decision is open", () => {
  const s = ctl.onHint(st(), { action: "take", score: 4.4, win_share: 0.503 });
  assert.ok(liveHint(s));
  assert.equal(hintText(s, /** @type {any} */ (s.hint)),
    "Hint: take the 5♠ from the pile. Expected final score: about 4 (lower wins); 50% chance to win.");
  assert.deepEqual(hintMarks(s, null), new Set(["take", "pile"]));
  // In a match to a target the hint's chance is the match's, and it says so.
  const inMatch = ctl.onHint(st(), { action: "take", score: 4.4, win_share: 0.2, match: true });
  assert.equal(hintText(inMatch, /** @type {any} */ (inMatch.hint)),
    "Hint: take the 5♠ from the pile. Expected final score: about 4 (lower wins); 20% chance to win the match.");
  // Made (not legal any more), or not our move: gone at the next tick.
  const moved = ctl.tick({ ...s, view: view({ legal: ["swap 0", "discard"] }) }, T);
  assert.equal(moved.hint, null);
  assert.equal(liveHint({ ...s, view: view({ actor: 1 }) }), null);
  // A message without an action is no hint.
  assert.equal(ctl.onHint(st(), /** @type {any} */ ({ text: "?" })).hint, null);
});

test("every action in words, with the screen's names and numbers", () => {
  const s = st({ held: "KH" });
  const words = Object.fromEntries(["draw", "take", "cambio", "swap 2", "exchange 0 1", "discard", "peek 1.0",
    "look 0.1 1.3", "switch 0.0 1.1", "keep", "skip", "give 3", "pass", "snap 1.2", "fly"].map((a) => [a, actionWords(s, a)]));
  assert.deepEqual(words, {
    draw: "draw a card from the deck", take: "take the 5♠ from the pile", cambio: "call Cambio",
    "swap 2": "swap the K♥ into your card 3", "exchange 0 1": "exchange the K♥ for your card 1 and your card 2",
    discard: "discard the K♥", "peek 1.0": "peek at Bo's card 1", "look 0.1 1.3": "look at your card 2 and Bo's card 4",
    "switch 0.0 1.1": "switch your card 1 and Bo's card 2", keep: "keep the cards where they are",
    skip: "skip the power", "give 3": "give your card 4", pass: "pass", "snap 1.2": "snap Bo's card 3", fly: "fly",
  });
  assert.equal(actionWords(st({ held: "?", discard: [] }), "discard"), "discard the card you hold");
  assert.equal(hintText(s, { action: "draw" }), "Hint: draw a card from the deck.");
});

test("what a hint outlines: its cards and button, the deck for a draw; else the tutorial's marks", () => {
  const s = st({ legal: ["draw", "switch 0.0 1.1"] });
  assert.deepEqual(hintMarks(ctl.onHint(s, { action: "draw" }), null), new Set(["draw", "deck"]));
  assert.deepEqual(hintMarks(ctl.onHint(s, { action: "switch 0.0 1.1" }), null), new Set(["0.0", "1.1", "switch"]));
  assert.deepEqual(hintMarks(s, { text: "tip", marks: new Set(["deck"]) }), new Set(["deck"]));
  assert.deepEqual(hintMarks(s, null), new Set());
});

test("the Hint button is busy from the request to the answer or the next move", () => {
  const asked = ctl.handle(st(), { type: "ask-hint" }, T).state;
  assert.equal(hintBusy(asked), true);
  assert.equal(hintBusy(ctl.onHint(asked, { action: "draw" })), false);
  assert.equal(hintBusy({ ...asked, version: 8 }), false);
});

test("banners: a second within the hold time waits, then shows; each ends by itself", () => {
  let s = showBanner(st(), "first", "good", T);
  s = showBanner(s, "second", "bad", T + 100);
  assert.equal(s.banner?.text, "first");
  assert.equal(bannerWake(s), T + BANNER_HOLD_MS);
  assert.equal(advanceBanner(s, T + 200).banner?.text, "first");
  s = advanceBanner(s, T + BANNER_HOLD_MS);
  assert.deepEqual([s.banner?.text, s.bannerQueue.length], ["second", 0]);
  assert.equal(bannerWake(s), T + BANNER_HOLD_MS + BANNER_MS);
  s = advanceBanner(s, T + BANNER_HOLD_MS + BANNER_MS);
  assert.equal(s.banner, null);
  assert.equal(bannerWake(s), Infinity);
  // After the hold time a new banner replaces the shown one at once.
  const late = showBanner(showBanner(st(), "a", "call", T), "b", "call", T + BANNER_HOLD_MS);
  assert.equal(late.banner?.text, "b");
});

test("no hints where the result is compared: a rated table, the daily deal", () => {
  assert.equal(hintsOffered(summary()), true);
  assert.equal(hintsOffered(null), true, "before the summary: the server still refuses");
  assert.equal(hintsOffered(summary({ rated: true, hints_off: true })), false);
  assert.equal(hintsOffered(summary({ daily: true, hints_off: true })), false);
  assert.equal(hintsOffered(summary({ hints_off: false })), true);
});
