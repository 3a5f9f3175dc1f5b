// The review's view functions (labels, the chart's geometry, the better move's words and
// places, the wait between two asks) and the panel they build, on a review shaped as the
// server sends it (docs/review.md, "--json"). A DOM from linkedom.
import "./dom.js";
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  SYMBOLS, averageAccuracy, chartGeometry, costliest, describeMove, pollDelay, replayPath,
  shownPoints,
} from "../../src/cambio/web/static/review/model.js";
import { ReviewPanel, labelTag } from "../../src/cambio/web/static/review/panel.js";
import { h } from "../../src/cambio/web/static/common.js";
import { normalize } from "../../src/cambio/web/static/board/model.js";
import { boardGrid } from "../../src/cambio/web/static/board/view.js";

/** @typedef {import("../../src/cambio/web/static/review/model.js").Review} Review */
/** @typedef {import("../../src/cambio/web/static/review/model.js").Decision} Decision */
/** @typedef {import("../../src/cambio/web/static/review/model.js").Label} Label */

/**
 * @param {number} step @param {Label} label @param {number} loss
 * @param {string} chosen @param {string} best
 * @returns {Decision}
 */
function decision(step, label, loss, chosen, best) {
  const c = { action: chosen, win: 0.5 - loss / 100, score: 5 };
  const b = { action: best, win: 0.5, score: 4 };
  return { step, label, loss, points: 1, exact: false, slips: [], chosen: c, best: b,
    options: chosen === best ? [b] : [b, c] };
}

/** @returns {Review} */
function review() {
  return {
    game: "cards", seat: 1, accuracy: 71.5,
    labels: { best: 2, good: 0, inaccuracy: 1, mistake: 1, blunder: 1 },
    series: [0.5, 0.25, 1, 0.75, 0],
    costliest: [30, 12, 20],
    slips: 0,
    decisions: [
      decision(2, "best", 0, "draw", "draw"),
      decision(3, "blunder", 40, "discard", "swap 2"),
      decision(12, "mistake", 9, "take", "draw"),
      decision(20, "inaccuracy", 4, "pass", "snap 0.3"),
      decision(30, "best", 0, "cambio", "cambio"),
    ],
  };
}

test("every label has a sign, so it reads without colour", () => {
  assert.deepEqual(Object.keys(SYMBOLS), ["best", "good", "inaccuracy", "mistake", "blunder"]);
  assert.equal(new Set(Object.values(SYMBOLS)).size, 5);
  const tag = labelTag("blunder");
  assert.equal(tag.dataset.label, "blunder");
  assert.ok(tag.classList.contains("lbl-blunder"));
  assert.equal(tag.textContent, "?? Blunder");
});

test("the chart puts each decision at its step across and its chance up", () => {
  const g = chartGeometry(review(), 40, { width: 100, height: 60, pad: 10 });
  assert.deepEqual(g.points.map((p) => p.step), [2, 3, 12, 20, 30]);
  // x: 10 + step * 80 / 40; y: 10 (100%) .. 50 (0%)
  assert.deepEqual(g.points.map((p) => p.x), [14, 16, 34, 50, 70]);
  assert.deepEqual(g.points.map((p) => p.y), [30, 40, 10, 20, 50]);
  assert.equal(g.even, 30);
  assert.equal(g.path, "M14 30 L16 40 L34 10 L50 20 L70 50");
  assert.equal(g.x(0), 10);
  assert.equal(g.x(40), 90);
  assert.equal(g.x(99), 90, "a step past the end stays in the box");
  assert.deepEqual(g.points.map((p) => p.label), ["best", "blunder", "mistake", "inaccuracy", "best"]);
});

test("a round of one frame and a chance out of range stay in the box", () => {
  const r = review();
  r.series = [1.5, -1, 0.5, 0.5, 0.5];
  const g = chartGeometry(r, 0, { width: 100, height: 60, pad: 10 });
  for (const p of g.points) {
    assert.ok(p.x >= 10 && p.x <= 90);
    assert.ok(p.y >= 10 && p.y <= 50);
  }
});

test("the costliest decisions come in the review's order", () => {
  assert.deepEqual(costliest(review()).map((d) => d.step), [30, 12, 20]);
});

test("a move is named in words and points at its places on the table", () => {
  const names = ["Ann", "Bob"];
  assert.deepEqual(describeMove("swap 2", 1, names),
    { key: "review.move.swap", params: { slot: 3 }, slots: ["1.2"], place: null, cell: null });
  assert.deepEqual(describeMove("switch 0.1 1.3", 1, names).params,
    { name: "Ann", slot: 2, other: "Bob", otherSlot: 4 });
  assert.deepEqual(describeMove("switch 0.1 1.3", 1, names).slots, ["0.1", "1.3"]);
  assert.deepEqual(describeMove("snap 0.0", 1, names).slots, ["0.0"]);
  assert.equal(describeMove("take", 1, names).place, "pile");
  assert.equal(describeMove("discard", 1, names).place, "held");
  assert.equal(describeMove("cambio", 1, names).key, "review.move.cambio");
  const push = describeMove("c3>", 0, names);
  assert.equal(push.key, "review.move.push");
  assert.equal(push.cell, "c3");
  assert.equal(describeMove("frobnicate 7", 0, names).key, "review.move.other");
});

test("the wait between two asks grows from Retry-After to a quarter of a minute", () => {
  assert.equal(pollDelay(0, 2), 2000);
  assert.equal(pollDelay(1, 2), 3000);
  assert.equal(pollDelay(2, 2), 4500);
  assert.equal(pollDelay(20, 2), 15000);
  assert.equal(pollDelay(0, NaN), 2000, "no header: two seconds");
});

test("losses and accuracies are shown readably", () => {
  assert.equal(shownPoints(0.44), 0.4);
  assert.equal(shownPoints(12.49), 12);
  assert.deepEqual(averageAccuracy([{ accuracy: 80 }, { accuracy: null }, { accuracy: 91 }, {}]),
    { mean: 85.5, count: 2 });
  assert.deepEqual(averageAccuracy([{ accuracy: null }]), { mean: null, count: 0 });
});

test("a replay link names its seat only when there is one", () => {
  assert.equal(replayPath("t 1", 2, 0), "/r/t%201?game=2&seat=0");
  assert.equal(replayPath("t", undefined, null), "/r/t");
  assert.equal(replayPath("t", 1, -1), "/r/t?game=1");
});

/** @returns {{panel: ReviewPanel, board: HTMLElement, went: number[]}} */
function panel() {
  /** @type {number[]} */
  const went = [];
  const p = new ReviewPanel({ tableId: "t", game: 1, round: 1, seats: [1, 0], names: ["Ann", "Bob"],
    lastStep: 40, go: (k) => went.push(k) });
  const board = h("div", null,
    ...[0, 1].flatMap((q) => [0, 1, 2, 3].map((i) => h("div.card", { dataset: { addr: `${q}.${i}` } }))),
    h("div.pile-box", null, h("div.card")));
  return { panel: p, board, went };
}

test("the panel lists each decision with its label, and jumps to the costliest", () => {
  const { panel: p, board, went } = panel();
  p.done(review());
  const rows = [...p.node.querySelectorAll("#review-moves li")];
  assert.deepEqual(rows.map((li) => /** @type {HTMLElement} */ (li).dataset.label),
    ["best", "blunder", "mistake", "inaccuracy", "best"]);
  assert.match(p.node.querySelector("#review-accuracy")?.textContent ?? "", /71\.5/);
  const jumps = [...p.node.querySelectorAll("#review-jumps button")];
  assert.deepEqual(jumps.map((b) => /** @type {HTMLElement} */ (b).dataset.step), ["30", "12", "20"]);
  /** @type {HTMLElement} */ (jumps[1]).click();
  assert.deepEqual(went, [12]);
  assert.equal(p.node.querySelectorAll("#review-chart circle").length, 5);
  p.step(3, board);
  assert.equal(p.now.querySelector("#review-better")?.textContent, "Better: swap into slot 3.");
  assert.deepEqual([...board.querySelectorAll(".better")].map((n) => /** @type {HTMLElement} */ (n).dataset.addr), ["1.2"]);
  assert.equal(p.node.querySelector("li[aria-current]")?.getAttribute("data-step"), "3");
});

test("a best move marks nothing, and a step with no decision says so", () => {
  const { panel: p, board } = panel();
  p.done(review());
  p.step(2, board);
  assert.equal(p.now.querySelector("#review-better"), null);
  assert.equal(board.querySelectorAll(".better").length, 0);
  p.step(5, board);
  assert.equal(p.now.textContent, "Bob made no decision here.");
});

test("a dice decision rings the better push's arrow and its die on the drawn board", () => {
  const p = new ReviewPanel({ tableId: "t", game: 1, round: 1, seats: [0], names: ["Ann", "Bob"],
    lastStep: 9, go: () => {} });
  const played = decision(4, "mistake", 12, "a1>", "c3v");
  p.done({ game: "board", seat: 0, accuracy: 80, labels: { best: 0, good: 0, inaccuracy: 0,
    mistake: 1, blunder: 0 }, series: [0.4], costliest: [4], slips: 0, decisions: [played] });
  // The replay draws its board with every arrow disabled (nothing is playable there).
  const drawn = normalize({ position: "x2/3/2o x 4", players: 2, turn: 0, actor: 0,
    rules: { line: 3 }, legal: [], last: null, phase: "play" });
  const board = h("div.board-game.replay-table", null, boardGrid(drawn, { legal: new Set() }));
  p.step(4, board);
  const ringed = [...board.querySelectorAll(".better")].map((n) => /** @type {HTMLElement} */ (n));
  assert.deepEqual(ringed.map((n) => n.dataset.cell ?? n.dataset.move).sort(), ["c3", "c3v"]);
  assert.ok(ringed.some((n) => n.matches("button.arrow:disabled")));
  assert.match(p.now.querySelector("#review-better")?.textContent ?? "", /c3v/);
});

test("while the review is computed the panel shows the queue", () => {
  const { panel: p } = panel();
  assert.match(p.progress({ status: "queued", ahead: 3, workers: 1 }).textContent ?? "", /3 reviews ahead/);
  assert.match(p.progress({ status: "queued", ahead: 1, workers: 1 }).textContent ?? "", /1 review ahead/);
  assert.match(p.progress({ status: "running", workers: 1 }).textContent ?? "", /Reviewing this round now/);
  assert.equal(p.node.querySelectorAll("#review-seat option").length, 2, "a picker for two seats");
});

/**
 * A stand-in for the server's review endpoint: the answers in turn, and the paths asked.
 * @param {{status: number, body: unknown, retry?: string}[]} answers
 * @returns {string[]}
 */
function serve(answers) {
  /** @type {string[]} */
  const asked = [];
  globalThis.fetch = /** @type {typeof fetch} */ (async (/** @type {string} */ path) => {
    asked.push(path);
    const a = answers.shift();
    if (!a) throw new Error("no more answers");
    return new Response(JSON.stringify(a.body), {
      status: a.status, headers: a.retry ? { "Retry-After": a.retry } : {} });
  });
  return asked;
}

/** Let the panel's awaits run. */
async function settle() {
  for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
}

test("the panel asks again while the review is computed, then shows it", async (t) => {
  t.mock.timers.enable({ apis: ["setTimeout"] });
  const asked = serve([
    { status: 202, body: { status: "queued", ahead: 2, workers: 1 }, retry: "2" },
    { status: 202, body: { status: "running", ahead: 0, workers: 1 }, retry: "2" },
    { status: 200, body: { status: "done", review: review() } },
  ]);
  const { panel: p } = panel();
  await p.load();
  assert.equal(p.node.dataset.state, "progress");
  assert.match(p.node.textContent ?? "", /2 reviews ahead/);
  t.mock.timers.tick(1999);
  await settle();
  assert.equal(asked.length, 1, "not before Retry-After");
  t.mock.timers.tick(1);
  await settle();
  assert.match(p.node.textContent ?? "", /Reviewing this round now/);
  t.mock.timers.tick(2999);
  await settle();
  assert.equal(asked.length, 2, "then half as long again");
  t.mock.timers.tick(1);
  await settle();
  assert.equal(p.node.dataset.state, "done");
  assert.equal(asked[0], "/api/tables/t/seats/1/review?round=1&game=1");
});

test("a refused seat says so, and an answer for another seat is dropped", async (t) => {
  t.mock.timers.enable({ apis: ["setTimeout"] });
  serve([{ status: 403, body: { error: { code: "forbidden", message: "no" } } }]);
  const { panel: p } = panel();
  await p.load();
  assert.equal(p.node.querySelector("#review-forbidden")?.textContent,
    "This seat's review is shown only to its player (a bot's seat to anyone, once the game is over).");
  // the first seat's answer comes after the picker moved to the other seat: dropped
  serve([{ status: 202, body: { status: "queued", ahead: 0, workers: 1 } },
    { status: 200, body: { status: "done", review: review() } }]);
  const first = p.load();
  p.seat = 0;
  const second = p.load();
  await Promise.all([first, second]);
  assert.equal(p.node.dataset.state, "done");
  t.mock.timers.tick(60_000);
  await settle();
  assert.equal(p.node.dataset.state, "done", "no poll left behind by the first seat");
});
