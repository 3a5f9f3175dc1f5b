// The turn clock: what it shows for a `clock` message, and that its five ticks a second
// leave the page alone until the seconds shown change (a redraw each tick kept chromium
// drawing frames for the whole turn). A DOM from linkedom.
import { document, window } from "./dom.js";
import { test } from "node:test";
import assert from "node:assert/strict";
import { TurnClockView } from "../../src/cambio/web/static/clock.js";
import { summary } from "./fixtures.js";

/** A clock view on a detached element, its interval stopped (the test ticks it by hand).
 * @param {Record<string, unknown>} [extra] summary fields */
function clockView(extra = {}) {
  const el = document.createElement("div");
  const table = summary(extra);
  const view = new TurnClockView(el, { seat: () => 0, summary: () => table, back: () => {} });
  clearInterval(view.timer);
  return { el, view };
}

/** A `clock` message as the server sends it.
 * @param {number | null} seat @param {number | null} seconds @param {number | null} left
 * @returns {import("../../src/cambio/web/static/protocol_types.js").Clock} */
function clock(seat, seconds, left) {
  return { type: "clock", game_no: 1, round: 1, version: 3, seconds, seat, left,
    deadline: left === null ? null : 1_800_000_000 + left };
}

/** @param {HTMLElement} el */
function shown(el) {
  const clock = el.querySelector("#turn-clock");
  const fill = /** @type {HTMLElement | null} */ (el.querySelector("#turn-clock .fill"));
  return clock && fill ? {
    left: clock.getAttribute("data-left"), seat: clock.getAttribute("data-seat"),
    mine: clock.classList.contains("mine"), low: clock.classList.contains("low"),
    text: el.querySelector("#turn-clock .left")?.textContent, bar: fill.getAttribute("style"),
  } : null;
}

test("the clock shows whole seconds left and the bar's share of the turn", () => {
  const { el, view } = clockView();
  view.clock(clock(0, 30, 12.2));
  assert.deepEqual(shown(el), { left: "13", seat: "0", mine: true, low: false, text: "0:13",
    bar: "transform:scaleX(0.433)" });
  view.clock(clock(1, 30, 4.5));
  assert.deepEqual(shown(el), { left: "5", seat: "1", mine: false, low: true, text: "0:05",
    bar: "transform:scaleX(0.167)" });
  view.clock(clock(null, null, null));
  assert.equal(shown(el), null);
});

test("the clock shows nothing when the table is not playing", () => {
  const { el, view } = clockView({ status: "waiting" });
  view.clock(clock(0, 30, 20));
  assert.equal(shown(el), null);
});

test("ticks within a second change nothing on the page; a new second does", async (t) => {
  let now = 1_000;
  t.mock.method(performance, "now", () => now);     // restored when the test ends
  const { el, view } = clockView();
  view.clock(clock(0, 60, 40.9));
  /** @type {unknown[]} */
  const changes = [];
  const observer = new window.MutationObserver((records) => changes.push(...records));
  observer.observe(el, { subtree: true, childList: true, attributes: true, characterData: true });
  for (let i = 0; i < 4; i++) {
    now += 200;     // the page's own ticks, 0.8 s of the same whole second
    view.render();
  }
  await new Promise((resolve) => setTimeout(resolve, 0));
  assert.equal(changes.length, 0);
  now += 200;
  view.render();
  await new Promise((resolve) => setTimeout(resolve, 0));
  assert.ok(changes.length > 0);
  assert.deepEqual([shown(el)?.left, shown(el)?.bar], ["40", "transform:scaleX(0.667)"]);
  observer.disconnect();
});
