// @ts-check
// The card tutorial's tips: each lesson comes when the table shows its chance, outlines what
// to tap, and speaks the reader's language.
import "./dom.js";
import { test } from "node:test";
import assert from "node:assert/strict";
import { useLanguage } from "../../src/cambio/web/static/i18n.js";
import { initialState } from "../../src/cambio/web/static/cards/model.js";
import * as ctl from "../../src/cambio/web/static/cards/controller.js";
import { cardsCoach } from "../../src/cambio/web/static/tutorial_cards.js";
import { summary, view } from "./fixtures.js";

/** @typedef {import("../../src/cambio/web/static/cards/model.js").CardsState} CardsState */
/** @typedef {import("../../src/cambio/web/static/messages.js").CardEvent} CardEvent */

const SNAPS = ["snap 0.0", "snap 0.2", "snap 1.0", "snap 1.1", "snap 1.2", "snap 1.3"];
/** Four turns of Ann's begun (four draws), none of them a snap. */
const FOUR_TURNS = [0, 1, 2, 3].map(() => ({ seat: 0, action: "draw" }));

/** @param {Partial<import("../../src/cambio/web/static/messages.js").CardView>} v
 * @param {CardEvent[]} [log] @returns {CardsState} */
function st(v, log = []) {
  return { ...initialState({ seat: 0 }), summary: summary(), version: 9, log, view: view(v) };
}

/** @param {CardsState} s */
function coach(s) {
  const got = cardsCoach(s, /** @type {any} */ (s.view));
  assert.ok(got);
  return { text: got.text, marks: [...got.marks].sort() };
}

test("a card of the other player's that you peeked at is snapped when its rank tops the pile", async () => {
  await useLanguage("en");
  const s = st({ actor: 1, grids: [["AC", "?", "2C", null], ["4D", "?", "?", "?"]],
    discard: ["6S", "4C"], legal: ["pass", ...SNAPS] });
  assert.deepEqual(coach(s), {
    text: "Snap! The pile's 4♣ matches Bo's card 1 (the 4♦), which you peeked at. Tap it. "
      + "Then give Bo one of yours.",
    marks: ["1.0", "snap-mode"],
  });
});

test("a wrong snap is shown once, on a card nobody has shown you, then its penalty, then Cambio", async () => {
  await useLanguage("en");
  const grids = [["AC", null, "2C", null], ["?", "?", "?", "?"]];
  const turn = { grids, discard: ["JH", "5H"], legal: ["draw", "cambio", ...SNAPS] };
  // Before the fourth turn the round is young: draw.
  assert.deepEqual(coach(st(turn, FOUR_TURNS.slice(1))).marks, ["deck", "draw"]);
  const guess = coach(st(turn, FOUR_TURNS));
  assert.equal(guess.text, "No card you know matches the 5♥. See what a wrong snap costs: guess at Bo's card 1. Tap it.");
  assert.deepEqual(guess.marks, ["1.0", "snap-mode"]);
  const wrong = [...FOUR_TURNS, { seat: 0, action: "snap 1.0", card: "QD", right: false }];
  const penalty = coach(st({ ...turn, grids: [["AC", null, "2C", null, "?"], grids[1]] }, wrong));
  assert.match(penalty.text, /^Wrong: it was the Q♦, shown to all and put back\. Your penalty/);
  assert.deepEqual(penalty.marks, ["deck", "draw"]);
  // Once the penalty is drawn and a turn played: the known cards are low, call Cambio.
  const after = [...wrong, { seat: 0, action: "draw" }, { seat: 1, action: "draw" }];
  const call = coach(st({ ...turn, grids: [["AC", null, "2C", null, "?"], grids[1]] }, after));
  assert.equal(call.text, "Your known cards make 3, plus 1 unseen card: low. Call Cambio (tap it twice): "
    + "Bo plays once more, then the lowest total wins.");
  assert.deepEqual(call.marks, ["cambio"]);
});

test("no tip while a move of ours is on its way: the one just followed is not shown again", async () => {
  await useLanguage("en");
  const turn = st({ grids: [["AC", null, "2C", null], ["?", "?", "?", "?"]], discard: ["JH", "5H"],
    legal: ["draw", "cambio"] });
  assert.deepEqual(coach(turn).marks, ["deck", "draw"]);
  const moving = ctl.sent(turn, "draw", "r1");
  assert.equal(cardsCoach(moving, /** @type {any} */ (moving.view)), null);
  // Not sent (no connection): the tip stays.
  assert.deepEqual(coach(ctl.sent(turn, "draw", null)).marks, ["deck", "draw"]);
  // Refused: the same decision again, and its tip with it.
  const refused = ctl.rejected(moving, { code: "illegal", message: "no", ref: "r1" }).state;
  assert.deepEqual(coach(refused).marks, ["deck", "draw"]);
  // Answered: the next view's tip (the drawn card's).
  const held = view({ grids: turn.view?.grids, discard: ["JH", "5H"], held: "KS", legal: ["swap 0.0", "discard"] });
  const answered = ctl.onUpdate(moving, /** @type {any} */ ({ type: "update", version: 10, view: held,
    event: { seat: 0, action: "draw" } }), 0);
  assert.notEqual(cardsCoach(answered, /** @type {any} */ (answered.view)), null);
});

test("the tips speak the reader's language", async () => {
  await useLanguage("de");
  try {
    const held = coach(st({ phase: "drawn", held: "2C", legal: ["swap 0", "swap 1", "swap 2", "swap 3", "discard"],
      grids: [["?", "?", "QC", "3D"], ["?", "?", "?", "?"]] }));
    assert.match(held.text, /^Punkte: A 1, 2–10 Augenzahl, .* Die 2♣ \(2\) schlägt deine Karte 3 \(Q♣, 10\)/);
    assert.deepEqual(held.marks, ["0.2"]);
  } finally {
    await useLanguage("en");
  }
});
