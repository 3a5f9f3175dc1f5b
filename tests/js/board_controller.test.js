// The dice table's decisions: a tap on an arrow or a die, what the board offers, the status.
import { test } from "node:test";
import assert from "node:assert/strict";
import { boardStatus, lastPush, offered, setupTarget, tapMove } from "../../src/cambio/web/static/board/controller.js";
import { normalize } from "../../src/cambio/web/static/board/model.js";

/** @param {object} [extra] */
const board = (extra = {}) => normalize({ position: "x2/3/2o x 4", players: 2, turn: 0, actor: 0,
  rules: { line: 3 }, legal: ["a1>", "c3v", "b1^"], last: "a3>", phase: "play", ...extra });
const name = (/** @type {number | null} */ s) => (s === 0 ? "You" : `Seat ${Number(s) + 1}`);
const status = (/** @type {any} */ b, /** @type {object} */ o = {}) => boardStatus(b, {
  seat: 0, mine: true, picking: false, preview: null, coarse: false, name, ...o });

test("a push: a click pushes; on a touch screen the first tap shows it, the second pushes", () => {
  assert.deepEqual(tapMove(null, "a1>", true, false), { preview: null, send: "a1>" });
  assert.deepEqual(tapMove(null, "a1>", true, true), { preview: "a1>", send: null });
  assert.deepEqual(tapMove("a1>", "a1>", true, true), { preview: null, send: "a1>" });
  assert.deepEqual(tapMove("a1>", "c3v", true, true), { preview: "c3v", send: null });
  // A die of the setup is one tap.
  assert.deepEqual(tapMove(null, "neutral b2", false, true), { preview: null, send: "neutral b2" });
});

test("what the board offers: our legal moves only, the setup's dice by cell; the last push", () => {
  const b = board({ legal: ["neutral b2", "own c3", "pass"] });
  const mine = offered(b, true);
  assert.deepEqual([...mine.legal], ["neutral b2", "own c3", "pass"]);
  assert.deepEqual([...mine.picks], [["b2", "neutral b2"], ["c3", "own c3"]]);
  assert.equal(offered(b, false).legal.size, 0);
  assert.equal(lastPush(board()), "a3>");
  assert.equal(lastPush(board({ last: "neutral b2" })), null);
});

test("the status line: our move (mouse or touch, a push previewed), another's, watching, the end", () => {
  assert.equal(status(board()), "Your move: click an arrow to push a die in.");
  assert.equal(status(board(), { coarse: true }), "Your move: tap an arrow to see the push, tap it again to push.");
  assert.equal(status(board(), { preview: "c3v" }), "Push into column C from the top? Tap the arrow again.");
  assert.equal(status(board({ turn: 1 }), { mine: false }), "Seat 2 is thinking…");
  assert.equal(status(board({ turn: 1 }), { seat: null, mine: false }), "Watching · Seat 2 to play.");
  assert.equal(status(board({ phase: "over", winners: [0] })), "You win!");
  assert.equal(status(board({ phase: "over", winners: [1] })), "Seat 2 wins!");
  assert.equal(status(board({ phase: "over", winners: [], outcome: { termination: "move_cap" } })), "Draw (the move limit).");
});

test("the setup: whose dice we adjust and what a tap does; another choosing", () => {
  const neutral = board({ phase: "setup", legal: ["neutral b2"], setup: { adjusting: 1 } });
  assert.equal(setupTarget(neutral), 1);
  assert.equal(status(neutral, { picking: true }),
    "Setup: you adjust Seat 2's dice — tap a highlighted die to turn it neutral (at most two of theirs in a line).");
  assert.equal(status(board({ phase: "setup", legal: ["own c3"], setup: { seat: 1 } }), { picking: true }),
    "Setup: you adjust Seat 2's dice — tap a highlighted cell to give them a die there.");
  assert.equal(status(board({ phase: "setup", actor: 1 }), { mine: false }), "Setup: Seat 2 is choosing…");
  assert.equal(setupTarget(board({ actor: 1 })), 1);
});
