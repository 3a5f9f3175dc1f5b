// The dice table's views: the board's arrows and dice, the players, the setup, the result and
// the log, as the state draws them (text, classes, what a tap reports). A DOM from linkedom.
import "./dom.js";
import { test } from "node:test";
import assert from "node:assert/strict";
import { normalize } from "../../src/cambio/web/static/board/model.js";
import { eventWords, logPanel, playersBar, resultWords, resultsPanel, setupPanel }
  from "../../src/cambio/web/static/board/panels.js";
import { boardGrid } from "../../src/cambio/web/static/board/view.js";

/** @param {object} [extra] */
const board = (extra = {}) => normalize({ position: "x2/3/2o x 4", players: 2, turn: 0, actor: 0,
  rules: { line: 3 }, legal: ["a1>", "c3v"], last: "a3>", phase: "play", ...extra });
const name = (/** @type {number} */ s) => (s === 0 ? "You" : `Seat ${s + 1}`);
/** @param {Element} el */
const text = (el) => (el.textContent || "").replace(/\s+/g, " ").trim();

test("the board: arrows for the legal pushes only, the last push and a previewed one marked", () => {
  /** @type {[string, boolean][]} */
  const taps = [];
  const el = boardGrid(board(), { legal: new Set(["a1>", "c3v"]), last: "a3>", preview: "c3v",
    onMove: (m, isPush) => taps.push([m, isPush]) });
  const arrows = [...el.querySelectorAll("button.arrow")];
  assert.equal(arrows.length, 12);
  const enabled = arrows.filter((a) => !a.hasAttribute("disabled")).map((a) => a.getAttribute("data-move"));
  assert.deepEqual(enabled.sort(), ["a1>", "c3v"]);
  const armed = /** @type {HTMLElement} */ (el.querySelector('button.arrow[data-move="c3v"]'));
  assert.ok(armed.classList.contains("armed"));
  assert.match(armed.getAttribute("aria-label") || "", /tap again to confirm/);
  armed.click();
  assert.deepEqual(taps, [["c3v", true]]);
  // a3> entered at a3 and ran along row 3; its dice are marked, the first as entered.
  assert.deepEqual([...el.querySelectorAll(".die.last")].map((d) => d.getAttribute("data-cell")), ["a3", "b3", "c3"]);
  assert.equal(el.querySelector(".die.entered")?.getAttribute("data-cell"), "a3");
  assert.equal(el.querySelectorAll(".die.preview").length, 3);
});

test("the board: the dice by owner with their names; the setup's dice are buttons", () => {
  /** @type {string[]} */
  const taps = [];
  const el = boardGrid(board(), { legal: new Set(), picks: new Map([["b2", "neutral b2"]]),
    names: ["You", "Seat 2"], win: [[0, 4, 8]], onMove: (m) => taps.push(m) });
  const a3 = /** @type {HTMLElement} */ (el.querySelector('.die[data-cell="a3"]'));
  assert.equal(a3.getAttribute("data-owner"), "0");
  assert.match(a3.getAttribute("aria-label") || "", /^a3: You's die/);
  assert.equal(el.querySelector('.die[data-cell="c1"]')?.getAttribute("data-owner"), "1");
  assert.equal(el.querySelector('.die[data-cell="b2"]')?.getAttribute("data-owner"), "-1");
  assert.ok(el.querySelector('.die[data-cell="a1"]')?.classList.contains("corner"));
  const pick = /** @type {HTMLElement} */ (el.querySelector(".die.pickable"));
  assert.equal(pick.tagName, "BUTTON");
  pick.click();
  assert.deepEqual(taps, ["neutral b2"]);
  assert.deepEqual([...el.querySelectorAll(".die.win")].map((d) => d.getAttribute("data-cell")), ["c3", "b2", "a1"]);
});

test("the players: whose turn, You with the seat's name, dice counted, the winner tagged", () => {
  const summary = { seats: [{ seat: 0, name: "Ann" }, { seat: 1, name: "Bo" }] };
  const el = playersBar(board(), { seat: 0, summary, name });
  const rows = [...el.querySelectorAll(".board-player")];
  assert.deepEqual(rows.map((r) => r.querySelector("strong")?.textContent), ["You (Ann)", "Seat 2"]);
  assert.deepEqual(rows.map((r) => r.classList.contains("on-turn")), [true, false]);
  assert.deepEqual(rows.map((r) => r.querySelector(".muted-on-felt")?.textContent), ["1 die", "1 die"]);
  const over = playersBar(board({ phase: "over", winners: [1] }), { seat: null, summary, name });
  assert.equal(over.querySelectorAll(".on-turn").length, 0);
  assert.equal(over.querySelector('[data-seat="1"] .win')?.textContent, "winner");
});

test("the setup: targets and counts, whose dice the next player adjusts", () => {
  const b = board({ phase: "setup", setup: { targets: [4, 4], adjusting: 1, adding: false } });
  const items = [...setupPanel(b, name).querySelectorAll("li")];
  assert.deepEqual(items.map(text), ["You: 1 die, 4 at the start",
    "Seat 2: 1 die, 4 at the start — being reduced by you"]);
  assert.ok(items[1].classList.contains("now"));
  const adding = setupPanel(board({ phase: "setup", setup: { targets: [4, 4], adjusting: 0, adding: true } }), name);
  assert.equal(text(/** @type {Element} */ (adding.querySelector("li.now"))), "You: 1 die, 4 at the start — being topped up by Seat 2");
});

test("the result: the line made in words, Play again for the host only, the replay's link", () => {
  const b = board({ phase: "over", winners: [1], outcome: { termination: "line" },
    lines: [{ seat: 1, cells: [0, 4, 8] }] });
  assert.equal(resultWords(b, name), "Seat 2 made a line of 3 (a1–c3).");
  assert.equal(resultWords(board({ phase: "over", winners: [], outcome: { termination: "move_cap" } }), name),
    "Ended by: the move limit.");
  let again = 0;
  const env = { status: "Seat 2 wins!", name, isHost: true, tableId: "t 1", gameNo: 2, onAgain: () => { again += 1; } };
  const host = resultsPanel(b, env);
  assert.equal(host.querySelector("h2")?.textContent, "Seat 2 wins!");
  assert.equal(host.querySelector("#result-words")?.textContent, "Seat 2 made a line of 3 (a1–c3).");
  /** @type {HTMLElement} */ (host.querySelector("#again")).click();
  assert.equal(again, 1);
  assert.equal(host.querySelector("#replay-link")?.getAttribute("href"), "/r/t%201?game=2");
  const guest = resultsPanel(b, { ...env, isHost: false, gameNo: undefined });
  assert.equal(guest.querySelector("#again"), null);
  assert.equal(guest.querySelector("#replay-link")?.getAttribute("href"), "/r/t%201");
});

test("the log's words: pushes with their notation, a pass, the setup's choices, the end", () => {
  /** @param {import("../../src/cambio/web/static/board/panels.js").BoardEvent} ev @param {number} [players] */
  const words = (ev, players = 2) => eventWords(ev, players, name)
    .map((p) => (typeof p === "string" ? p : `[${p.textContent}]`)).join("");
  assert.equal(words({ seat: 0, move: "a3>" }), "You pushed into row 3 from the left [(a3>)]");
  assert.equal(words({ seat: 1, move: "pass" }), "Seat 2 passed (no push was legal)");
  assert.equal(words({ seat: 1, setup: "neutral b2" }), "Setup: Seat 2 turned your die on b2 neutral");
  assert.equal(words({ seat: 0, setup: "own c3" }), "Setup: You gave Seat 2 a die on c3");
  assert.equal(words({ seat: 2, setup: "neutral a1" }, 3), "Setup: Seat 3 turned Seat 2's die on a1 neutral");
  assert.equal(words({ setup: "roll" }), "Chance: roll");
  assert.equal(words({ seat: 1, move: "c3v", end: { winners: [1] } }),
    "Seat 2 pushed into column C from the top [(c3v)] — Seat 2 wins");
  assert.equal(words({ seat: 0, move: "a1>", end: { winners: [0] } }),
    "You pushed into row 1 from the left [(a1>)] — You win");
  assert.equal(words({ seat: 0, move: "pass", end: { winners: [], termination: "move_cap" } }),
    "You passed (no push was legal) — draw (the move limit)");
});

test("the log: newest first, counted, opened or closed as the player leaves it", () => {
  /** @type {boolean[]} */
  const toggles = [];
  const log = [{ seat: 0, move: "a3>" }, { seat: 1, move: "pass" }];
  const el = logPanel(log, 2, name, { open: false, onToggle: (open) => toggles.push(open) });
  assert.equal(el.querySelector("summary")?.textContent, "Moves (2)");
  assert.deepEqual([...el.querySelectorAll("li")].map(text),
    ["Seat 2 passed (no push was legal)", "You pushed into row 3 from the left (a3>)"]);
  assert.equal(el.hasAttribute("open"), false);
  /** @type {HTMLDetailsElement} */ (el).open = true;   // the player opens it
  el.dispatchEvent(new Event("toggle"));
  assert.deepEqual(toggles, [true]);
  const long = Array.from({ length: 90 }, (_, i) => ({ seat: i % 2, move: "pass" }));
  assert.equal(logPanel(long, 2, name, { open: true, onToggle() {} }).querySelectorAll("li").length, 80);
});
