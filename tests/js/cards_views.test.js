// The card table's views: what the state draws (text, buttons, the classes the CSS and the
// browser tests read), and that a button reports the player's intent. A DOM from linkedom.
import "./dom.js";
import { test } from "node:test";
import assert from "node:assert/strict";
import * as ctl from "../../src/cambio/web/static/cards/controller.js";
import { initialState } from "../../src/cambio/web/static/cards/model.js";
import { shownCode, tableView } from "../../src/cambio/web/static/cards/view.js";
import { statusText } from "../../src/cambio/web/static/cards/status.js";
import { eventLine } from "../../src/cambio/web/static/cards/log.js";
import { summary, view } from "./fixtures.js";

/** @typedef {import("../../src/cambio/web/static/cards/model.js").CardsState} CardsState */
/** @typedef {import("../../src/cambio/web/static/cards/controller.js").Intent} Intent */
/** @typedef {import("../../src/cambio/web/static/messages.js").CardView} CardView */
const T = 9_000_000;

/** @param {Partial<CardView>} [v] @param {Partial<CardsState>} [extra] @returns {CardsState} */
function st(v = {}, extra = {}) {
  return { ...initialState({ seat: 0 }), summary: summary(), version: 3, view: view(v), ...extra };
}

/** Draw the table; `intents` collects what its buttons report.
 * @param {CardsState} s @param {{ text: string, marks: Set<string> } | null} [coach] */
function draw(s, coach = null) {
  /** @type {Intent[]} */
  const intents = [];
  let again = 0;
  const el = tableView(s, /** @type {CardView} */ (s.view), {
    now: T, coach, dispatch: (i) => intents.push(i), canHint: true, isHost: true, tableId: "t1",
    onHelp() {}, onAgain() { again += 1; }, onSkipTutorial() {},
  });
  /** @param {string} sel */
  const q = (sel) => /** @type {HTMLElement} */ (el.querySelector(sel));
  return { el, q, intents, again: () => again };
}

/** @param {HTMLElement} el */
const buttons = (el) => [...el.querySelectorAll(".actions button")].map((b) => b.textContent);

test("your turn: the status line, the deck and pile to tap, Draw first and Cambio last", () => {
  const { q, el, intents } = draw(st());
  assert.equal(q("#status").textContent, "Your turn: draw a card or take the 5♠, or call Cambio.");
  assert.deepEqual(buttons(el), ["Draw", "Take 5♠", "Call Cambio"]);
  assert.ok(q("#deck").classList.contains("target"));
  q("#deck").click();
  q("#pile").click();
  q(".actions button[data-action='cambio']").click();
  assert.deepEqual(intents, [{ type: "send", action: "draw" }, { type: "send", action: "take" }, { type: "cambio" }]);
  // Our cards: the seen ones face down once their flash is over, numbered, each a button.
  const mine = [...el.querySelectorAll(".seat.mine .card")];
  assert.equal(mine.length, 4);
  assert.deepEqual(mine.map((c) => c.getAttribute("data-addr")), ["0.0", "0.1", "0.2", "0.3"]);
  assert.equal(el.querySelectorAll("[data-code]").length, 1);   // only the pile's 5♠
});

test("a card shows its face only while we may see it: a flash, assist mode, the reveal", () => {
  const s = st();
  assert.equal(shownCode(s, view(), "0.2", "3D"), "?");
  assert.equal(shownCode({ ...s, flash: { "0.2": { start: T, until: T + 9 } } }, view(), "0.2", "3D"), "3D");
  assert.equal(shownCode({ ...s, assist: true }, view(), "0.2", "3D"), "3D");
  assert.equal(shownCode(s, view({ phase: "round_over" }), "0.2", "3D"), "3D");
  assert.equal(shownCode(s, view(), "1.0", "?"), "?");
  assert.equal(shownCode(s, view(), "1.0", null), "empty");
  const flashing = draw({ ...s, flash: { "0.2": { start: T, until: T + 9 } } });
  assert.ok(flashing.q("[data-addr='0.2']").classList.contains("flash"));
  assert.equal(flashing.q("[data-addr='0.2']").getAttribute("data-code"), "3D");
});

test("holding a drawn card: the swap targets, Discard with the power's words", () => {
  const s = st({ phase: "drawn", held: "8H", legal: ["swap 0", "swap 1", "swap 2", "swap 3", "discard"] },
    { rulesCat: { fields: [{ name: "power_seven_eight", choice_labels: { peek_own: "Peek at one of your own cards" } }],
      presets: { rulebook: { power_seven_eight: "peek_own" } } } });
  const { el, q, intents } = draw(s);
  assert.equal(q("#status").textContent, "You hold 8♥: tap one of your cards to swap it in, or discard it.");
  assert.deepEqual(buttons(el), ["Discard 8♥"]);
  assert.equal(q("#power-note").textContent, "Discarding the 8♥ lets you: peek at one of your own cards.");
  assert.equal(q("#held").getAttribute("data-code"), "8H");
  assert.equal(el.querySelectorAll(".seat.mine .card.target").length, 4);
  q("[data-addr='0.1']").click();
  assert.deepEqual(intents, [{ type: "tap", addr: "0.1" }]);
});

test("two cards chosen: the confirm button names them, then Cancel; the status asks to confirm", () => {
  const s = st({ phase: "power", legal: ["look 0.0 1.1", "look 0.1 1.1"] }, { selected: ["0.0", "1.1"] });
  const { el, q, intents } = draw(s);
  assert.deepEqual(buttons(el), ["Look at: your card 1 and Bo's card 2", "Cancel"]);
  assert.equal(q("#status").textContent, "Confirm, or tap the card again.");
  assert.ok(q("[data-addr='0.0']").classList.contains("selected"));
  q("[data-action='confirm-look']").click();
  q("[data-action='cancel']").click();
  assert.deepEqual(intents, [{ type: "send", action: "look 0.0 1.1" }, { type: "cancel" }]);
  assert.equal(draw(st({ phase: "power", legal: ["look 0.0 1.1"] }, { selected: ["1.1"] })).q("#status").textContent,
    "Now tap the second card.");
});

test("a king's one pair gets a direct Switch button beside Keep", () => {
  const { el } = draw(st({ phase: "king_decide", legal: ["switch 0.0 1.1", "keep"], looked: ["0.0", "1.1"] }));
  assert.deepEqual(buttons(el), ["Keep (no switch)", "Switch your card 1 ↔ Bo's card 2"]);
  assert.ok(el.querySelector("[data-addr='1.1']")?.classList.contains("looked"));
});

test("a snap: Snap… among other moves; armed, the cards to snap and the status say so", () => {
  const v = { phase: "drawn", held: "9S", legal: ["swap 0", "discard", "snap 0.3"] };
  const plain = draw(st(v));
  assert.deepEqual(buttons(plain.el), ["Discard 9♠", "Snap…"]);
  plain.q("[data-action='snap-mode']").click();
  assert.deepEqual(plain.intents, [{ type: "snap-mode" }]);
  const armed = draw(st(v, { snapMode: true }));
  assert.ok(armed.q("[data-addr='0.3']").classList.contains("snappable"));
  assert.equal(armed.q("[data-action='snap-mode']").textContent, "Snap: tap a card (cancel)");
  assert.ok(armed.q("#pile").classList.contains("matchable"));
  const waiting = draw(st({ actor: 1, turn: 1, legal: ["snap 0.3"] }, { pendingSnaps: ["0.3"] }));
  assert.equal(waiting.q("#status").textContent, "Bo to play. Snap: tap a card you think matches the 5♠.");
  assert.ok(waiting.q("[data-addr='0.3']").classList.contains("pending"));
});

test("a right snap of another's card: give one of yours", () => {
  const { q } = draw(st({ phase: "give", last_snap: { slot: "1.2" }, legal: ["give 0", "give 1", "give 2", "give 3"] }));
  assert.equal(q("#status").textContent, "Right! Give one of your cards to Bo: tap it.");
});

test("assist mode: the Hint button, busy until the answer; the hint replaces the status line", () => {
  const s = st({}, { assist: true });
  const idle = draw(s);
  assert.equal(idle.q("#hint").textContent, "Hint");
  idle.q("#hint").click();
  assert.deepEqual(idle.intents, [{ type: "ask-hint" }]);
  const busy = draw({ ...s, hintAsked: 3 }).q("#hint");
  assert.deepEqual([busy.textContent, busy.hasAttribute("disabled"), busy.getAttribute("aria-busy")],
    ["Thinking…", true, "true"]);
  assert.equal(idle.q("#hint").hasAttribute("disabled"), false);
  const hinted = draw(ctl.onHint(s, { action: "draw", score: 3.2, win_share: 0.25 }));
  assert.equal(hinted.q("#hint-text").textContent,
    "Hint: draw a card from the deck. Expected final score: about 3 (lower wins); 25% chance to win.");
  assert.ok(hinted.q("#deck").classList.contains("hinted"));
  assert.ok(hinted.q("[data-action='draw']").classList.contains("hinted"));
  hinted.q("#hint-close").click();
  assert.deepEqual(hinted.intents, [{ type: "dismiss-hint" }]);
  assert.equal(draw(st()).q("#hint"), null);   // not in assist mode
});

test("the tutorial's tip takes the status line and outlines what it names", () => {
  const { q } = draw(st(), { text: "Draw a card.", marks: new Set(["deck", "draw"]) });
  assert.equal(q("#coach-text").textContent, "Draw a card.");
  assert.ok(q("#deck").classList.contains("hinted"));
});

test("the banner, the Cambio badge, the round badge; a spectator's status", () => {
  const s = { ...st({ caller: 1, final_turns_left: 1 }), banner: { text: "Bo called Cambio!", kind: "call", start: T - 10, until: T + 100 },
    summary: summary({ rounds: 3, round: 2, totals: [4, 9] }) };
  const { q, el } = draw(s);
  assert.equal(q(".banner").textContent, "Bo called Cambio!");
  assert.ok(q(".banner").classList.contains("fresh"));
  assert.equal(q(".badge.called").textContent, "Cambio: Bo · 1 turn left");
  assert.equal(q(".badge.round").textContent, "Round 2 of 3");
  assert.equal(el.querySelector(".seat[data-seat='1'] .seat-total")?.textContent, " · total 9");
  const watching = st({ actor: 1 }, { seat: null });
  assert.equal(statusText(watching, view({ actor: 1 })), "Watching · Bo to play.");
  assert.equal(draw(watching).el.querySelector("#assist"), null);
});

test("the reveal: the winner, the scores, Play again for the host and the replay link", () => {
  const v = { phase: "round_over", legal: [], scores: [5, 12], winners: [0], end_reason: "cambio",
    grids: [["AS", "2D", "3D", "4C"], ["KS", "QH", "9C", "TD"]] };
  const s = st(v, { summary: summary({ status: "finished", game_no: 2 }) });
  const { q, el, again } = draw(s);
  assert.equal(q("#results h2").textContent, "Round over: You win!");
  assert.deepEqual([...el.querySelectorAll("#results tbody td")].map((td) => td.textContent),
    ["You (Ann)", "4", "5", "Bo", "4", "12"]);
  assert.equal(q("#replay-link").getAttribute("href"), "/r/t1?game=2&seat=0", "the replay opens on the seat's review");
  q("#again").click();
  assert.equal(again(), 1);
  assert.equal(el.querySelectorAll(".actions button").length, 0);
  assert.equal(statusText(st({ phase: "round_over", winners: [1] }), view({ phase: "round_over", winners: [1] })), "Round over: Bo wins!");
});

test("the log: every move in words, the round's end, your bot's moves; seen cards only in assist mode", () => {
  const s = st();
  /** @param {import("../../src/cambio/web/static/messages.js").CardEvent} ev */
  const line = (ev, assist = false) => {
    const out = eventLine({ ...s, assist }, ev);
    return typeof out === "string" ? out : out.textContent;
  };
  assert.equal(line({ deal: true }), "The cards are dealt; everyone peeks at their two bottom cards.");
  assert.equal(line({ seat: 0, action: "draw", card: "KH" }), "You drew a card");
  assert.equal(line({ seat: 0, action: "draw", card: "KH" }, true), "You drew a card (K♥)");
  assert.equal(line({ seat: 0, action: "draw", bot: true }), "Your bot drew a card");
  assert.equal(line({ seat: 1, action: "take", card: "5S" }), "Bo took 5♠ from the pile");
  assert.equal(line({ seat: 1, action: "swap 2", discarded: "9C", reshuffled: true }),
    "Bo swapped it into their card 3, discarding 9♣ · the pile was shuffled into the deck");
  assert.equal(line({ seat: 0, action: "discard", discarded: "8H" }), "You discarded 8♥");
  assert.equal(line({ seat: 1, action: "exchange 0 1", discarded: ["4C", "4D"] }), "Bo exchanged it for 4♣, 4♦");
  assert.equal(line({ seat: 1, action: "exchange 0 1", revealed: ["4C", "7D"] }), "Bo tried to exchange unequal cards: 4♣, 7♦");
  assert.equal(line({ seat: 0, action: "peek 1.0", card: "QS" }, true), "You peeked at Bo's card 1 (Q♠)");
  assert.equal(line({ seat: 0, action: "look 0.1 1.2", cards: ["2C", "3C"] }, true), "You looked at your card 2 and Bo's card 3 (2♣, 3♣)");
  assert.equal(line({ seat: 1, action: "switch 0.1 1.2" }), "Bo switched your card 2 and their own card 3");
  assert.equal(line({ seat: 1, action: "keep" }), "Bo kept the cards where they were");
  assert.equal(line({ seat: 1, action: "skip" }), "Bo skipped the power");
  assert.equal(line({ seat: 1, action: "snap 1.3", card: "5C", right: true }), "Bo snapped their own card 4: 5♣ ✓ right");
  assert.equal(line({ seat: 0, action: "snap 1.3", card: "6C", right: false }), "You snapped Bo's card 4: 6♣ ✗ wrong, penalty card");
  assert.equal(line({ seat: 1, action: "give 0" }), "Bo gave their card 1");
  assert.equal(line({ seat: 1, action: "cambio" }), "Bo called Cambio!");
  assert.equal(line({ seat: 1, action: "pass" }), "Bo passed");
  assert.equal(line({ seat: 1, action: "wave" }), "Bo: wave");
  assert.equal(line({ seat: 1 }), '{"seat":1}');
  const log = draw({ ...s, log: [{ seat: 1, action: "draw" }, { seat: 1, action: "cambio", end: {} }] });
  assert.deepEqual([...log.el.querySelectorAll(".log-list li")].map((li) => li.textContent),
    ["The round is over.", "Bo called Cambio!", "Bo drew a card"]);
  assert.equal(log.q(".log summary").textContent, "Log (3)");
});

test("every status of another's move, and of ours", () => {
  const other = (/** @type {Partial<CardView>} */ v) => statusText(st({ actor: 1, turn: 1, legal: [], ...v }), view({ actor: 1, turn: 1, legal: [], ...v }));
  assert.deepEqual(["turn_start", "drawn", "king_decide", "poll", "odd"].map((phase) => other({ phase })),
    ["Bo to play.", "Bo holds a card.", "Bo decides whether to switch.", "Snap?", "Bo to play."]);
  assert.equal(other({ phase: "power", power: "look_any_two_swap_any_two" }), "Bo is using a power: look at two, then switch two.");
  assert.equal(other({ phase: "power", power: null }), "Bo is using a power.");
  assert.equal(other({ phase: "give", last_snap: { slot: "0.1" } }), "Bo gives a card to You.");
  const mine = (/** @type {string[]} */ legal, /** @type {Partial<CardView>} */ v = {}) => statusText(st({ legal, ...v }), view({ legal, ...v }));
  assert.equal(mine(["swap 0", "discard"], { held: "2C", held_from_pile: true }), "Tap one of your cards to swap the 2♣ in.");
  assert.equal(mine(["discard"]), "Discard the card.");
  assert.equal(mine(["peek 0.0"]), "Power: tap one of your cards to peek at it.");
  assert.equal(mine(["peek 1.0"]), "Power: tap another player's card to peek at it.");
  assert.equal(mine(["look 0.0 1.0"]), "Power: tap two highlighted cards to look at them.");
  assert.equal(mine(["switch 0.0 1.0", "keep"]), "Switch the two cards you looked at, or keep them.");
  assert.equal(mine(["switch 0.0 1.0"]), "Power: tap two highlighted cards to switch them.");
  assert.equal(mine(["pass", "snap 0.1"]), "Snap a matching card, or pass.");
  assert.equal(mine([]), "Your move.");
});

test("a log fed move by move: your bot's moves, yours, their own cards, a wrong snap", () => {
  // Three players: Ann (seat 0, this page), Bot 2 and Bot 3.
  const three = summary({ players: 3, seats: [{ seat: 0, kind: "human", name: "Ann" },
    { seat: 1, kind: "bot", name: "Bot 2" }, { seat: 2, kind: "bot", name: "Bot 3" }] });
  const v = view({ players: 3, grids: [["?", "?", "?", "?"], ["?", "?", "?", "?"], ["?", "?", "?", "?"]] });
  let s = ctl.onState({ ...initialState({ seat: 0 }), summary: three }, { version: 0, view: v, log: [] }, T).state;
  /** @param {import("../../src/cambio/web/static/messages.js").CardEvent} event @param {number} version */
  const feed = (event, version) => { s = ctl.onUpdate(s, { version, event, view: v }, T); };
  feed({ seat: 1, action: "snap 1.0", card: "7H", right: true }, 1);
  feed({ seat: 0, action: "draw" }, 2);                 // not sent by this page
  s = ctl.sent(s, "discard", "a1");
  feed({ seat: 0, action: "discard", discarded: "3S" }, 3);
  feed({ seat: 2, action: "peek 2.1" }, 4);
  feed({ seat: 0, action: "snap 0.2", card: "9D", right: false }, 5);
  const { el, q } = draw(s);
  assert.deepEqual([...el.querySelectorAll(".log-list li")].map((li) => li.textContent), [
    "Your bot snapped your card 3: 9♦ ✗ wrong, penalty card",
    "Bot 3 peeked at their own card 2",
    "You discarded 3♠",
    "Your bot drew a card",
    "Bot 2 snapped their own card 1: 7♥ ✓ right",
  ]);
  assert.equal(q("details.log summary").textContent, "Log (5)");
  // The first banner holds its time; the second waits behind it.
  assert.equal(q(".banner").textContent, "Bot 2 snapped their own card 1: 7♥ — right!");
  assert.equal(s.bannerQueue.length, 1);
});

test("the move that ends a round stays in the log, the round-over line after it, once", () => {
  // The last swap of a round carries the round's end facts: the page once showed that event
  // as "The round is over." alone, and the move itself was missing.
  let s = ctl.onState({ ...initialState({ seat: 0 }), summary: summary() }, { version: 0, view: view(), log: [] }, T).state;
  const events = [{ seat: 0, action: "draw" }, { seat: 0, action: "discard", discarded: "9S" },
    { seat: 1, action: "cambio" }, { seat: 0, action: "draw" },
    { seat: 0, action: "swap 1", discarded: "KD", end: { scores: [7, 12], winners: [0] } }];
  events.forEach((event, i) => {
    // The view stays mid-round: a round-over view's countdown would start the page's ticker.
    s = ctl.onUpdate(s, { version: i + 1, event, view: view() }, T);
  });
  const lines = [...draw(s).el.querySelectorAll(".log-list li")].map((li) => li.textContent);
  assert.equal(lines[0], "The round is over.");
  assert.equal(lines[1], "Your bot swapped it into your card 2, discarding K♦");
  assert.equal(lines.length, events.length + 1);
  assert.equal(lines.filter((x) => x === "The round is over.").length, 1);
});

test("a hint in the table's terms stays through another's snap until the decision is made", () => {
  const drawn = view({ phase: "drawn", held: "KH", legal: ["swap 0", "swap 2", "discard"] });
  let s = st({}, { assist: true });
  s = ctl.onState(s, { version: 3, view: drawn, log: [] }, T).state;
  s = ctl.onHint(s, { action: "swap 2", score: 3.14, win_share: 0.67 });
  const first = draw(s);
  assert.equal(first.q("#hint-text").textContent,
    "Hint: swap the K♥ into your card 3. Expected final score: about 3 (lower wins); 67% chance to win.");
  assert.deepEqual([...first.el.querySelectorAll(".hinted")].map((e) => e.getAttribute("data-addr")), ["0.2"]);
  // Another player's snap moves the version, not the decision: the hint stays.
  s = ctl.onUpdate(s, { version: 4, event: { seat: 1, action: "snap 1.0", card: "7H", right: false }, view: drawn }, T);
  s = ctl.tick(s, T);
  assert.equal(draw(s).el.querySelectorAll("#hint-text").length, 1);
  // Dismissed, it goes.
  s = ctl.handle(s, { type: "dismiss-hint" }, T).state;
  assert.equal(draw(s).el.querySelectorAll("#hint-text").length, 0);
  // Asked again: a discard outlines the pile and the Discard button; the decision made, it goes.
  s = ctl.onHint(s, { action: "discard", score: 5, win_share: 0.4 });
  const discard = draw(s);
  assert.ok(discard.q("#pile").classList.contains("hinted"));
  assert.ok(discard.q(".actions button[data-action='discard']").classList.contains("hinted"));
  s = ctl.onUpdate(s, { version: 5, event: { seat: 0, action: "discard", discarded: "KH" }, view: view() }, T);
  s = ctl.tick(s, T);
  const after = draw(s);
  assert.equal(after.el.querySelectorAll("#hint-text").length, 0);
  assert.equal(after.el.querySelectorAll(".hinted").length, 0);
});
