// The turn clock on the table page: the countdown of whoever must decide (from the server's
// `clock` messages), "your turn" in the tab title, and the bar that gives a seat back to its
// player after the clock ran out on them again and again (the server's `back` message).
//
// The server sends how many seconds are left when it sends the message; the page counts
// down from its own receipt time (clocks of the two machines are never compared).
import { h, morphChildren, seatName } from "./common.js";
import { t } from "./i18n.js";

/** @typedef {import("./protocol_types.js").Clock} ClockMessage */
/**
 * The table page's hooks.
 * @typedef {{ seat: () => number | null, summary: () => import("./messages.js").TableSummary | null,
 *   back: () => void }} ClockContext
 */

const TICK_MS = 200;

export class TurnClockView {
  /**
   * @param {HTMLElement} el  where the countdown and the away bar go
   * @param {ClockContext} ctx
   */
  constructor(el, ctx) {
    this.el = el;
    this.ctx = ctx;
    /** @type {{ seat: number, seconds: number | null, until: number } | null} */
    this.running = null;     // until: performance.now() ms
    this.myTurn = false;
    this.baseTitle = document.title;
    /** What the page shows now, as compared between ticks. */
    this.shown = "";
    this.timer = setInterval(() => this.render(), TICK_MS);
  }

  /** A `clock` message: who is on the clock now, and for how long. @param {ClockMessage} msg */
  clock(msg) {
    this.running = msg.seat === null || msg.seat === undefined || msg.left === null
      ? null
      : { seat: msg.seat, seconds: msg.seconds, until: performance.now() + msg.left * 1000 };
    this.render();
  }

  /** The latest view: whether the game waits for our seat (the tab title says so).
   * @param {{ phase?: string, actor?: number | null } | null} view */
  view(view) {
    const seat = this.ctx.seat();
    const over = !view || view.phase === "round_over" || view.phase === "over";
    this.myTurn = !over && seat !== null && view.actor === seat;
    this.applyTitle();
  }

  /** @param {string} base */
  setTitle(base) {
    this.baseTitle = base;
    this.applyTitle();
  }

  applyTitle() {
    const title = this.myTurn ? `● ${t("clock.yourTurn")} · ${this.baseTitle}` : this.baseTitle;
    if (document.title !== title) document.title = title;
  }

  /** Every tick: the page changes only when what it shows changes, once a second at most.
   * The bar steps with the seconds shown beside it. Animated between them (a transition on
   * its width or its scale), it kept the page drawing frames for the whole turn: an idle
   * table cost 7% of a core in headless chromium, 13 times the lobby; stepped, 1.4%. */
  render() {
    const summary = this.ctx.summary();
    const seat = this.ctx.seat();
    const playing = summary !== null && summary.status === "playing";
    const clock = this.running && playing ? countdown(this.running, summary, seat) : null;
    const me = summary && summary.seats && seat !== null ? summary.seats[seat] : null;
    const away = Boolean(me && me.away && playing);
    const shown = JSON.stringify([clock, away, away && t("clock.away")]);
    if (shown === this.shown) return;
    this.shown = shown;
    const parts = [];
    if (clock) {
      parts.push(h("div.turn-clock", {
        id: "turn-clock", role: "timer", "aria-live": "off",
        class: `${clock.mine ? "mine" : ""} ${clock.left <= 5 ? "low" : ""}`,
        dataset: { key: "clock", seat: String(clock.seat), left: String(clock.left) },
      },
      h("span.who", null, clock.who),
      h("span.bar", null, h("span.fill", { style: `transform:scaleX(${clock.share.toFixed(3)})` })),
      h("span.left", null, formatSeconds(clock.left))));
    }
    if (away) {
      parts.push(h("div.away-bar", { id: "away-bar", role: "status", dataset: { key: "away" } },
        h("span", null, t("clock.away")),
        h("button.primary", { type: "button", id: "im-back", onclick: () => this.ctx.back() },
          t("clock.back"))));
    }
    // Morphed, not replaced, and keyed: the "I'm back" button stays the same node under a
    // finger even when the countdown above it comes and goes between decisions (unkeyed,
    // the bar would be morphed into the countdown's old node and the button made anew).
    morphChildren(this.el, h("div", null, ...parts));
  }
}

/** What the countdown shows now: whole seconds left, and the bar's share of the turn.
 * @param {{ seat: number, seconds: number | null, until: number }} running
 * @param {import("./messages.js").TableSummary} summary @param {number | null} seat */
function countdown(running, summary, seat) {
  const left = Math.max(0, Math.ceil((running.until - performance.now()) / 1000));
  const mine = running.seat === seat;
  const share = running.seconds ? Math.min(1, left / running.seconds) : 0;
  return {
    seat: running.seat, left, mine, share,
    who: mine ? t("clock.yourMove") : t("clock.toMove", { who: seatName(summary, running.seat) }),
  };
}

/** @param {number} s */
function formatSeconds(s) {
  const m = Math.floor(s / 60);
  const r = s % 60;
  return `${m}:${String(r).padStart(2, "0")}`;
}
