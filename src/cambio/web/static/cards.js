// The card table's effects layer: the one place that touches the page, the socket, sound,
// motion, timers, storage and the keyboard. It keeps the controller's state
// (cards/controller.js), feeds it the server's messages and the player's taps and keys,
// sends the actions the controller returns, and morphs the table into what the views
// (cards/view.js) draw from the state.
//
// Everything drawn comes from the view the server sent: a card code that is not in the view
// is never rendered. The client sends only action texts taken from view.legal.
import { getAssist, morphChildren, setAssist } from "./common.js";
import { loadRules } from "./rules.js";
import { fly, planFlights } from "./motion.js";
import { playCues } from "./sound.js";
import { guiding, skipTutorial } from "./tutorial.js";
import { cardsCoach } from "./tutorial_cards.js";
import * as ctl from "./cards/controller.js";
import { hintsOffered, liveHint } from "./cards/hints.js";
import { helpOverlay, keyCommand } from "./cards/keyboard.js";
import { initialState, pileTop, tapSnaps } from "./cards/model.js";
import { tableView } from "./cards/view.js";

/** @typedef {import("./cards/model.js").CardsState} CardsState */
/** @typedef {import("./cards/controller.js").Intent} Intent */
/** @typedef {import("./messages.js").ActExtra} ActExtra */

/**
 * What the page hosting the table provides (table.js online, offline/solo.js offline).
 * @typedef {object} TableContext
 * @property {(action: string, extra?: ActExtra) => string | number | null} act  send; the ref, or null
 * @property {() => void} [hint]
 * @property {() => number | null} seat
 * @property {() => void} again
 * @property {() => boolean} isHost
 * @property {string} tableId
 */

export class CardsTable {
  /** @param {HTMLElement} el @param {TableContext} ctx */
  constructor(el, ctx) {
    this.ctx = ctx;
    this.st = initialState({
      seat: ctx.seat(), assist: getAssist(), logOpen: !matchMedia("(max-width: 760px)").matches,
    });
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    this.timer = undefined;
    this.root = document.createElement("div");
    this.root.className = "cards-game";
    el.append(this.root);
    /** @type {HTMLElement | null} */
    this.help = null;              // the `?` overlay
    this.decisionKey = "";         // the decision last given the focus
    this.pileShown = { key: "", at: 0 };   // the pile's top card, and when it was first drawn
    this.onScroll = () => keepTopInView(this.root);
    window.addEventListener("scroll", this.onScroll, { passive: true });
    this.onKey = (/** @type {KeyboardEvent} */ e) => this.key(e);
    document.addEventListener("keydown", this.onKey);
    loadRules().then((cat) => { this.st = { ...this.st, rulesCat: cat }; this.render(); }).catch(() => {});
  }

  destroy() {
    clearTimeout(this.timer);
    window.removeEventListener("scroll", this.onScroll);
    document.removeEventListener("keydown", this.onKey);
    if (this.help) this.help.remove();
    this.root.remove();
  }

  /** @param {import("./messages.js").TableSummary} summary */
  setSummary(summary) {
    this.st = { ...this.st, summary };
    this.render();
  }

  /** @param {import("./messages.js").StateMessage} msg */
  state(msg) {
    const { state, scrollTop } = ctl.onState(this.seated(), msg, Date.now());
    this.st = state;
    this.render();
    if (scrollTop) window.scrollTo(0, 0);
  }

  /** @param {import("./messages.js").UpdateMessage} msg */
  update(msg) {
    const prev = this.st.view;
    this.st = ctl.onUpdate(this.seated(), msg, Date.now());
    const flights = planFlights(this.root, msg.event, prev, msg.view);   // motion.js
    this.render();
    fly(this.root, flights);
    playCues(msg.event, prev, msg.view, this.st.seat);                   // sound.js
  }

  /** The server's hint: shown in the status line, in sight. @param {import("./messages.js").HintMessage} msg */
  showHint(msg) {
    this.st = ctl.onHint(this.st, msg);
    this.render();
    const box = document.getElementById("status");
    if (box) box.scrollIntoView({ block: "nearest" });
  }

  /** A refused action; returns the text to show for it, or null for the generic one.
   * @param {import("./messages.js").ErrorMessage} err */
  rejected(err) {
    const { state, text } = ctl.rejected(this.st, err);
    this.st = state;
    this.render();
    return text;
  }

  /** Send an action and draw the table (a page's test may call it). @param {string} action */
  send(action) {
    this.transmit(action);
    this.render();
  }

  /** Send an action the controller chose. @param {string} action */
  transmit(action) {
    // A snap says how long after its card was first drawn it was pressed (fair races).
    const extra = action.startsWith("snap ")
      ? { reaction_ms: Math.max(0, Math.min(Math.round(performance.now() - this.pileShown.at), 600000)) } : undefined;
    this.st = ctl.sent(this.st, action, this.ctx.act(action, extra));
  }

  /** What the player did (a tap, a button, a key). @param {Intent} intent */
  dispatch(intent) {
    const step = ctl.handle(this.seated(), intent, Date.now());
    this.st = step.state;
    if (intent.type === "assist") setAssist(intent.on);
    for (const action of step.send) this.transmit(action);
    if (intent.type === "log") return;        // the <details> opened itself
    this.render();
    if (step.askHint && this.ctx.hint) this.ctx.hint();
  }

  /** @param {KeyboardEvent} e */
  key(e) {
    const t = /** @type {HTMLElement | null} */ (e.target instanceof HTMLElement ? e.target : null);
    const editable = !!t && (t.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(t.tagName))
      && !(t instanceof HTMLInputElement && t.type === "checkbox");
    const res = keyCommand(this.st, {
      key: e.key, ctrl: e.ctrlKey || e.metaKey || e.altKey, editable,
      onButton: !!t && t.tagName === "BUTTON", helpOpen: !!this.help && !this.help.hidden,
    });
    if (!res) return;
    this.st = { ...this.st, keyPrefix: res.prefix };
    const c = res.command;
    if (c && c.type === "click") {
      const b = /** @type {HTMLElement | null} */ (c.selector === "#hint" ? document.getElementById("hint") : this.root.querySelector(c.selector));
      if (b) { b.click(); if (res.prevent) e.preventDefault(); }
      return;
    }
    if (res.prevent) e.preventDefault();
    if (!c) return;
    if (c.type === "help") this.toggleHelp();
    else if (c.type === "close-help") this.toggleHelp(false);
    else this.dispatch(c.intent);
  }

  /** @param {boolean} [show] */
  toggleHelp(show) {
    if (!this.help) {
      this.help = helpOverlay(() => this.toggleHelp(false));
      document.body.append(this.help);
    }
    this.help.hidden = show === undefined ? !this.help.hidden : !show;
    if (!this.help.hidden) /** @type {HTMLElement} */ (document.getElementById("kbd-close")).focus();
    else {
      const a = document.activeElement;
      if (a instanceof HTMLElement) a.blur();
      this.decisionKey = "";         // closed: the focus goes back to the decision
      this.render();
    }
  }

  /** Our seat may change (a seat taken, a spectator seated): the state follows the page. */
  seated() {
    const seat = this.ctx.seat();
    if (seat !== this.st.seat) this.st = { ...this.st, seat };
    return this.st;
  }

  render() {
    const st0 = this.seated();
    const view = st0.view;
    if (!view) return;
    const active = document.activeElement;
    const focusKey = active instanceof HTMLElement ? active.dataset.key : null;
    const now = Date.now();
    const st = this.st = ctl.tick(st0, now);
    const root = this.root;
    root.dataset.phase = view.phase;
    root.dataset.version = String(st.version);
    root.dataset.actor = view.actor === null || view.actor === undefined ? "" : String(view.actor);
    root.dataset.me = st.seat === null ? "" : String(st.seat);
    root.dataset.round = String((st.summary && st.summary.round) || "");
    root.classList.toggle("assist", st.assist);
    root.classList.toggle("snap-armed", tapSnaps(st));
    // The tutorial's tip (not on a tutorial table, once skipped, or under a standing hint: none).
    const coach = guiding(st.summary, st.seat, this.ctx.tableId) && !liveHint(st) ? cardsCoach(st, view) : null;
    // Build the table afresh, then morph the live one into it (taps and focus survive).
    morphChildren(root, tableView(st, view, {
      now, coach, dispatch: (intent) => this.dispatch(intent), canHint: !!this.ctx.hint && hintsOffered(st.summary),
      isHost: this.ctx.isHost(), tableId: this.ctx.tableId, onHelp: () => this.toggleHelp(),
      onAgain: () => this.ctx.again(), onSkipTutorial: () => { skipTutorial(this.ctx.tableId); this.render(); },
    }));
    const top = pileTop(view);
    const pileKey = `${view.discard.length}:${top}`;
    if (pileKey !== this.pileShown.key) this.pileShown = { key: pileKey, at: performance.now() };
    keepTopInView(root);
    const kept = focusKey ? /** @type {HTMLElement | null} */ (root.querySelector(`[data-key="${CSS.escape(focusKey)}"]`)) : null;
    if (kept) kept.focus({ preventScroll: true });
    // A focus on a decision's button follows the decision: with two cards chosen the focus
    // moves from Cancel to the confirm button, so Enter confirms (it cancelled before).
    if (!kept || kept.closest(".actions")) this.decisionKey = focusDecision(root, st, this.decisionKey);
    clearTimeout(this.timer);
    const wake = ctl.wakeAt(st, now);
    if (wake < Infinity) this.timer = setTimeout(() => this.render(), Math.max(30, wake - now + 10));
  }

  /** Whether the log is open (the page's tests open it to see every line). */
  get logOpen() { return this.st.logOpen; }
  set logOpen(open) { this.st = { ...this.st, logOpen: open }; }
}

/**
 * A new decision of ours: the focus goes to its first button (keyboard play). Returns the
 * decision's key (the focus moves once per decision).
 * @param {HTMLElement} root @param {CardsState} st @param {string} lastKey
 */
function focusDecision(root, st, lastKey) {
  const { view, seat, version, selected } = st;
  if (!view) return lastKey;
  const key = `${version}:${view.actor}:${view.phase}:${selected.length}`;
  if (key === lastKey) return key;
  if (view.actor !== seat || seat === null || view.phase === "round_over") return key;
  const a = document.activeElement;
  if (a && a !== document.body && !root.contains(a)) return key;   // typing in the chat
  const first = /** @type {HTMLElement | null} */ (root.querySelector(".actions button:not(:disabled)"));
  if (first) first.focus({ preventScroll: true });
  return key;
}

/**
 * The status line and the banner stay in view (nothing happens out of sight): sticky while
 * the table is on screen; scrolled further (to the chat), they float under the clock, and
 * the table keeps their room so nothing under the finger moves.
 * @param {HTMLElement} root
 */
function keepTopInView(root) {
  const top = /** @type {HTMLElement | null} */ (root.querySelector(".toprow"));
  if (!top) return;
  const clock = document.querySelector(".clock-host");
  const offset = clock ? Math.max(0, clock.getBoundingClientRect().bottom) : 0;
  const box = root.getBoundingClientRect();
  const height = top.offsetHeight;
  const float = box.bottom < offset + height + 8;
  top.classList.toggle("floating", float);
  if (float) {
    top.style.top = `${offset}px`;
    top.style.left = `${box.left}px`;
    top.style.width = `${box.width}px`;
    root.style.paddingTop = `${height}px`;
  } else {
    top.style.top = top.style.left = top.style.width = "";
    root.style.paddingTop = "";
  }
}
