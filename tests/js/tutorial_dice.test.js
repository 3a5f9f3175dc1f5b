// The dice tutorial's tips: the engine's advice (the view's `coach`) in words, with the push
// to outline, at each step of the guided game.
import { test } from "node:test";
import assert from "node:assert/strict";
import { normalize } from "../../src/cambio/web/static/board/model.js";
import { diceCoach } from "../../src/cambio/web/static/tutorial_dice.js";

/** The page's pointer: a mouse unless a test says otherwise. */
let coarse = false;
const g = /** @type {Record<string, unknown>} */ (/** @type {unknown} */ (globalThis));
g.matchMedia = () => ({ matches: coarse });

/** A 5×5 board, seat 0 to move. @param {object} [extra] */
const board = (extra = {}) => normalize({ position: "x4/5/5/5/3oo x 6", players: 2, turn: 0, actor: 0,
  rules: { line: 5 }, legal: ["a1>", "e5v"], last: "c5v", phase: "play", ...extra });
/** @param {{ seat?: number, preview?: string | null, log?: { seat?: number }[] }} [ui] */
const table = (ui = {}) => ({ seat: 0, preview: null, log: [{ seat: 0 }],
  name: (/** @type {number} */ s) => (s === 0 ? "You" : "Random bot"), ...ui });
const pick = { move: "a1>", count: 3, line: [0, 1, 2, 3, 4], wins: false, threat: { count: 1, line: [20, 21] } };

test("the first move: the goal and how a push works, its arrow outlined", () => {
  const tip = diceCoach(table({ log: [] }), board({ coach: pick }), true);
  assert.equal(tip.text, "Make a line of 5 dice of your colour: a row, a column or a "
    + "long diagonal. A push slides a line one cell. Click the outlined arrow.");
  assert.deepEqual([...tip.marks], ["a1>"]);
  coarse = true;
  assert.match(diceCoach(table({ log: [] }), board({ coach: pick }), true).text, /Tap the outlined arrow twice\.$/);
  coarse = false;
});

test("later moves: a winning push, a threat to break, the best line; a previewed push", () => {
  assert.equal(diceCoach(table(), board({ coach: { ...pick, wins: true } }), true).text,
    "This push completes row 1: you win! Click the outlined arrow.");
  assert.equal(diceCoach(table(), board({ coach: { ...pick, threat: { count: 4, line: [4, 9, 14, 19] } } }), true).text,
    "Random bot has 4 in column E: break it up with this push. Click the outlined arrow.");
  assert.equal(diceCoach(table(), board({ coach: pick }), true).text, "Good push: 3 of yours in row 1. "
    + "It may push yours or neutral dice off the end, never Random bot's. Click the outlined arrow.");
  const previewed = diceCoach(table({ preview: "e5v" }), board({ coach: pick }), true);
  assert.equal(previewed.text, "The dashed line moves one step along. Tap the same arrow again to push.");
  assert.deepEqual([...previewed.marks], ["e5v"]);
});

test("the other's move, no legal push, the end", () => {
  assert.equal(diceCoach(table(), board({ turn: 1, actor: 1 }), false).text,
    "Random bot is pushing. Their last push is outlined on the board.");
  assert.equal(diceCoach(table(), board({ coach: null }), true).text, "No push is legal: press Pass.");
  assert.match(diceCoach(table(), board({ phase: "over", winners: [0] }), false).text, /^You made a line: you win!/);
  assert.match(diceCoach(table(), board({ phase: "over", winners: [1] }), false).text, /^The game is over\./);
});
