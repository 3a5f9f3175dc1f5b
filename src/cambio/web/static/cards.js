// The card table: grids, deck and pile, the turn's buttons, target selection, real-time
// snapping, the memory rule (what you saw is shown briefly, then turned down again), the log,
// and the reveal.
//
// Everything drawn comes from the view the server sent: a card code that is not in the view
// is never rendered. The client sends only action texts taken from view.legal.
import { getAssist, h, morphChildren, seatName, setAssist } from "./common.js";
import { matchOver, nextRoundNote, tableHistory } from "./match.js";
import { cardEl, cardSpan, cardText, isCode } from "./cardface.js";
import { loadRules, powerText } from "./rules.js";
import { fly, planFlights } from "./motion.js";
import { playCues } from "./sound.js";
import { coachLine, guiding, skipTutorial } from "./tutorial.js";
import { cardsCoach } from "./tutorial_cards.js";

const FLASH_MS = 3000;          // a peek, a look, a drawn or snapped card: shown this long
const OPENING_MS = 5000;        // the opening peek of the two bottom cards
const FX_MS = 1600;             // snap result animation
const BANNER_MS = 2600;
const BANNER_HOLD_MS = 1200;    // a banner stays this long at least before the next one replaces it
const END_REASONS = {
  cambio: "Cambio was called and everyone had a final turn.",
  deck_exhausted: "The deck ran out.",
  turn_cap: "The round reached its turn cap.",
};

const VERB_WORDS = {
  swap: "Swap in", exchange: "Exchange", give: "Give", peek: "Peek at", look: "Look at", switch: "Switch", snap: "Snap",
};

function parseAction(text, seat) {
  const [verb, ...args] = text.trim().split(/\s+/);
  // swap, give and exchange name slots of the actor's own grid.
  const own = verb === "swap" || verb === "give" || verb === "exchange";
  const targets = own ? args.map((a) => `${seat}.${a}`) : args;
  return { text, verb, targets };
}

function addrParts(addr) {
  const [s, i] = addr.split(".").map(Number);
  return [s, i];
}

function sameMultiset(a, b) {
  if (a.length !== b.length) return false;
  const x = [...a].sort();
  const y = [...b].sort();
  return x.every((v, i) => v === y[i]);
}

function containsAll(big, small) {
  const rest = [...big];
  for (const v of small) {
    const i = rest.indexOf(v);
    if (i < 0) return false;
    rest.splice(i, 1);
  }
  return true;
}

export class CardsUI {
  constructor(el, ctx) {
    this.el = el;
    this.ctx = ctx;
    this.summary = null;
    this.view = null;
    this.log = [];
    this.version = 0;
    this.flash = new Map();        // addr -> {start, until} (ms since epoch)
    this.fx = new Map();           // addr -> {kind, start, until}
    this.selected = [];
    this.snapMode = false;
    this.pendingSnaps = new Set();
    this.sent = [];                // actions this page sent that the log has not shown yet
    this.hint = null;              // the server's last hint while its decision stands
    this.hintAsked = null;         // the version a hint was asked for (the button is busy)
    this.assist = getAssist();
    this.banner = null;            // {text, kind, start, until}
    this.bannerQueue = [];         // {text, kind}: waiting for the shown banner's hold time
    this.snapRefs = new Map();     // ref of a snap sent -> its address
    this.cambioArmed = 0;          // time until which "call Cambio" waits for a second tap
    this.timer = null;
    this.logOpen = !matchMedia("(max-width: 760px)").matches;
    this.root = h("div.cards-game");
    el.append(this.root);
    this.onScroll = () => this.keepTopInView();
    window.addEventListener("scroll", this.onScroll, { passive: true });
    this.keyPrefix = null;         // "o", or {opp: k}: another player's card by keyboard
    this.decisionKey = "";         // the decision last given the focus
    this.help = null;              // the `?` overlay
    this.onKey = (e) => this.key(e);
    document.addEventListener("keydown", this.onKey);
    this.rulesCat = null;          // GET /api/rules: the words for powers
    loadRules().then((cat) => { this.rulesCat = cat; if (this.view) this.render(); }).catch(() => {});
  }

  destroy() {
    clearTimeout(this.timer);
    window.removeEventListener("scroll", this.onScroll);
    document.removeEventListener("keydown", this.onKey);
    if (this.help) this.help.remove();
    this.root.remove();
  }

  // ---------------------------------------------------------------- keyboard
  /** Shortcuts: every decision has a key (KEYS, shown by `?`); a card is its number (yours)
   * or O, the player's place (1 = the first other player), then its number. */
  key(e) {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const t = e.target;
    if (t && (t.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(t.tagName))
        && !(t.tagName === "INPUT" && t.type === "checkbox")) return;
    const k = e.key.length === 1 ? e.key.toLowerCase() : e.key;
    if (k === "?") { this.toggleHelp(); e.preventDefault(); return; }
    if (k === "Escape") {
      if (this.help && !this.help.hidden) this.toggleHelp(false);
      else if (this.keyPrefix) this.keyPrefix = null;
      else if (this.selected.length || this.snapMode) { this.selected = []; this.snapMode = false; this.render(); }
      else if (this.hint) this.dismissHint();
      return;
    }
    if (!this.view || this.seat === null) return;
    if (/^[1-9]$/.test(k)) {
      e.preventDefault();
      const n = Number(k);
      if (this.keyPrefix === "o") { this.keyPrefix = { opp: n }; return; }
      const seats = this.seatOrder(this.view);
      const seat = this.keyPrefix ? seats[this.keyPrefix.opp] : seats[0];
      this.keyPrefix = null;
      if (seat !== undefined) this.tapSlot(`${seat}.${n - 1}`);
      return;
    }
    this.keyPrefix = null;
    if (k === "o") { this.keyPrefix = "o"; return; }
    if (k === "s") {
      if (this.snaps().size) { this.snapMode = true; this.selected = []; this.render(); }
      return;
    }
    if (k === "h") { const b = document.getElementById("hint"); if (b) b.click(); return; }
    if (k === "Enter") {
      if (t && t.tagName === "BUTTON") return;          // the focused button's own Enter
      const b = this.root.querySelector(".actions button[data-action^='confirm-']");
      if (b) { b.click(); e.preventDefault(); }
      return;
    }
    const action = KEYS.find((x) => x.key === k && x.action);
    if (!action) return;
    const b = this.root.querySelector(`.actions button[data-action="${action.action}"]`);
    if (b) { b.click(); e.preventDefault(); }
  }

  toggleHelp(show) {
    if (!this.help) {
      this.help = h("div.kbd-help", { id: "kbd-help", role: "dialog", "aria-label": "Keyboard shortcuts", hidden: true },
        h("div.kbd-box", null,
          h("h2", null, "Keyboard shortcuts"),
          h("table", null, h("tbody", null, KEYS.map((x) => h("tr", null, h("td", null, h("kbd", null, x.label)), h("td", null, x.what))))),
          h("button.primary", { type: "button", id: "kbd-close", onclick: () => this.toggleHelp(false) }, "Close (Esc)")));
      document.body.append(this.help);
    }
    this.help.hidden = show === undefined ? !this.help.hidden : !show;
    if (!this.help.hidden) document.getElementById("kbd-close").focus();
    else {
      document.activeElement.blur();
      this.decisionKey = "";         // closed: the focus goes back to the decision
      this.render();
    }
  }

  /** A new decision of ours: the focus goes to its first button (keyboard play). */
  focusDecision(view) {
    const key = `${this.version}:${view.actor}:${view.phase}:${this.selected.length}`;
    if (key === this.decisionKey) return;
    this.decisionKey = key;
    if (view.actor !== this.seat || this.seat === null || view.phase === "round_over") return;
    const a = document.activeElement;
    if (a && a !== document.body && !this.root.contains(a)) return;   // typing in the chat
    const first = this.root.querySelector(".actions button:not(:disabled)");
    if (first) first.focus({ preventScroll: true });
  }

  /** The status line and the banner stay in view (nothing happens out of sight): sticky while the table
   * is on screen; scrolled further (to the chat), they float under the clock, and the table
   * keeps their room so nothing under the finger moves. */
  keepTopInView() {
    const top = this.root.querySelector(".toprow");
    if (!top) return;
    const clock = document.querySelector(".clock-host");
    const offset = clock ? Math.max(0, clock.getBoundingClientRect().bottom) : 0;
    const box = this.root.getBoundingClientRect();
    const height = top.offsetHeight;
    const float = box.bottom < offset + height + 8;
    top.classList.toggle("floating", float);
    if (float) {
      top.style.top = `${offset}px`;
      top.style.left = `${box.left}px`;
      top.style.width = `${box.width}px`;
      this.root.style.paddingTop = `${height}px`;
    } else {
      top.style.top = top.style.left = top.style.width = "";
      this.root.style.paddingTop = "";
    }
  }

  get seat() { return this.ctx.seat(); }

  setSummary(summary) {
    this.summary = summary;
    if (this.view) this.render();
  }

  // ---------------------------------------------------------------- messages
  state(msg) {
    const prev = this.view;
    this.view = msg.view;
    this.version = msg.version;
    this.log = Array.isArray(msg.log) ? [...msg.log] : [];
    this.selected = [];
    this.snapMode = false;
    this.pendingSnaps.clear();
    this.snapRefs.clear();
    const now = Date.now();
    if (msg.version === 0 && msg.view.phase !== "round_over") {
      // A fresh deal: the opening peek.
      this.flash.clear();
      this.forEachCode(msg.view, (addr) => this.flash.set(addr, { start: now, until: now + OPENING_MS }));
    } else if (prev && sameGame(prev, msg.view)) {
      this.flashChanges(prev, msg.view, now);
    }
    this.render();
    // A new deal after a reveal (the next round, a rematch's "Play again" at the bottom of
    // the results): back to the table, status and clock in view.
    if (prev && prev.phase === "round_over" && msg.view.phase !== "round_over") window.scrollTo(0, 0);
  }

  update(msg) {
    const prev = this.view;
    this.view = msg.view;
    this.version = msg.version;
    if (msg.event) this.log.push(this.markOwn(msg.event));
    const now = Date.now();
    this.flashChanges(prev, msg.view, now);
    this.react(msg.event, now);
    // A selection that no longer fits the legal actions is dropped.
    if (this.selected.length && !this.slotActions().some((a) => containsAll(a.targets, this.selected))) {
      this.selected = [];
    }
    if (!this.view.legal.some((a) => a.startsWith("snap "))) this.snapMode = false;
    const flights = planFlights(this.root, msg.event, prev, msg.view);   // motion.js
    this.render();
    fly(this.root, flights);
    playCues(msg.event, prev, msg.view, this.seat);                      // sound.js
  }

  // ---------------------------------------------------------------- hints
  /** The server's `hint` answer: shown in the status line, in the table's words, and the
   * cards, deck or pile and button it means are highlighted, until the decision is made
   * (the action is no longer legal) or the player dismisses it. */
  showHint(msg) {
    if (!msg || typeof msg.action !== "string") return;
    this.hint = { ...msg, version: this.version };
    this.render();
    const box = document.getElementById("status");
    if (box) box.scrollIntoView({ block: "nearest" });
  }

  dismissHint() {
    this.hint = null;
    this.render();
  }

  /** The standing hint, or null once its decision is made. */
  liveHint() {
    const v = this.view;
    if (!this.hint || !v || v.actor !== this.seat || !v.legal.includes(this.hint.action)) {
      this.hint = null;
      return null;
    }
    return this.hint;
  }

  // ---------------------------------------------------------------- the tutorial
  /** The tutorial's tip for what is on the table now ({text, marks}), or null (not a
   * tutorial table, skipped, or a hint standing). The script is tutorial_cards.js. */
  coach(view) {
    if (!guiding(this.summary, this.seat, this.ctx.tableId) || this.liveHint()) return null;
    return cardsCoach(this, view);
  }

  /** What a hinted action means, with the numbers and names on the screen. */
  actionWords(text) {
    const v = this.view;
    const a = parseAction(text, this.seat);
    const names = a.targets.map((t) => this.slotName(t));
    const held = isCode(v.held) ? `the ${cardText(v.held)}` : "the card you hold";
    const top = v.discard.length ? `the ${cardText(v.discard[v.discard.length - 1])}` : "the top card";
    switch (a.verb) {
      case "draw": return "draw a card from the deck";
      case "take": return `take ${top} from the pile`;
      case "cambio": return "call Cambio";
      case "swap": return `swap ${held} into ${names[0]}`;
      case "exchange": return `exchange ${held} for ${names.join(" and ")}`;
      case "discard": return `discard ${held}`;
      case "peek": return `peek at ${names[0]}`;
      case "look": return `look at ${names.join(" and ")}`;
      case "switch": return `switch ${names.join(" and ")}`;
      case "keep": return "keep the cards where they are";
      case "skip": return "skip the power";
      case "give": return `give ${names[0]}`;
      case "pass": return "pass";
      case "snap": return `snap ${names[0]}`;
      default: return text;
    }
  }

  hintText(hint) {
    const words = this.actionWords(hint.action);
    let line = `Hint: ${words}.`;
    if (typeof hint.score === "number" && typeof hint.win_share === "number") {
      // The estimate in plain words: the round score the hard bot expects you to end with,
      // and how often it sees you win from here.
      const pts = Math.round(hint.score);
      line += ` Expected final score: about ${pts} (lower wins); ${Math.round(hint.win_share * 100)}% chance to win.`;
    }
    return line;
  }

  /** What the standing hint points at: card addresses, "deck", "pile", a button's action. */
  hintMarks() {
    const hint = this.liveHint();
    if (!hint) return this.view ? (this.coach(this.view) || { marks: new Set() }).marks : new Set();
    const a = parseAction(hint.action, this.seat);
    const out = new Set([...a.targets, a.verb]);
    if (a.verb === "draw") out.add("deck");
    if (a.verb === "take" || a.verb === "discard") out.add("pile");
    return out;
  }

  /** An event of our seat that this page did not send was made by our seat's bot. */
  markOwn(ev) {
    if (!ev || typeof ev.action !== "string" || ev.seat !== this.seat || this.seat === null) return ev;
    const i = this.sent.indexOf(ev.action);
    if (i >= 0) {
      this.sent.splice(0, i + 1);
      return ev;
    }
    return { ...ev, bot: true };
  }

  /** A refused action; returns the text to show for it, or null for the generic one. */
  rejected(err) {
    this.pendingSnaps.clear();
    const addr = err && this.snapRefs.get(err.ref);
    if (err) this.snapRefs.delete(err.ref);
    this.render();
    if (!addr || err.code !== "illegal") return null;
    // The page offers only legal snaps: refused, it lost a race (the engine's reason names
    // slots, not people).
    const won = [...this.log].reverse().find((ev) => ev && typeof ev.action === "string"
      && ev.action === `snap ${addr}` && ev.seat !== this.seat);
    return won
      ? `Too late — ${this.name(won.seat)} snapped ${this.slotName(addr)} first.`
      : "Too late — that card can no longer be snapped.";
  }

  /** Banners queue: each shows for BANNER_HOLD_MS at least, so a quick second one (the other
   * snapper of a race) does not wipe the first before it can be read. */
  showBanner(text, kind, now) {
    if (this.banner && now - this.banner.start < BANNER_HOLD_MS) this.bannerQueue.push({ text, kind });
    else this.banner = { text, kind, start: now, until: now + BANNER_MS };
  }

  advanceBanner(now) {
    const b = this.banner;
    if (!b || (b.until > now && !(this.bannerQueue.length && now - b.start >= BANNER_HOLD_MS))) return;
    const next = this.bannerQueue.shift();
    this.banner = next ? { ...next, start: now, until: now + BANNER_MS } : null;
  }

  forEachCode(view, fn) {
    view.grids.forEach((grid, s) => grid.forEach((code, i) => {
      if (isCode(code)) fn(`${s}.${i}`, code);
    }));
  }

  flashChanges(prev, view, now) {
    this.forEachCode(view, (addr, code) => {
      const [s, i] = addrParts(addr);
      const before = prev && prev.grids[s] ? prev.grids[s][i] : undefined;
      if (code !== before) this.flash.set(addr, { start: now, until: now + FLASH_MS });
    });
  }

  react(event, now) {
    if (!event || typeof event.action !== "string") return;
    const who = this.name(event.seat);
    const [verb, arg] = event.action.split(" ");
    if (verb === "snap" && arg) {
      this.pendingSnaps.delete(arg);
      if (event.seat === this.seat) {
        for (const [ref, a] of this.snapRefs) if (a === arg) this.snapRefs.delete(ref);
      }
      const right = event.right === true;
      this.fx.set(arg, { kind: right ? "snap-right" : "snap-wrong", start: now, until: now + FX_MS });
      const card = isCode(event.card) ? cardText(event.card) : "a card";
      this.showBanner(`${this.actorName(event)} snapped ${this.slotName(arg, event.seat)}: ${card} — ${right ? "right!" : "wrong, penalty card"}`,
        right ? "good" : "bad", now);
      if (right && event.seat === this.seat) this.snapMode = false;
    } else if (verb === "cambio") {
      this.showBanner(`${this.actorName(event)} called Cambio!`, "call", now);
    }
  }

  // ---------------------------------------------------------------- names
  name(seat) {
    if (seat === this.seat && seat !== null && seat !== undefined) return "You";
    return seatName(this.summary, seat);
  }

  slotName(addr, actor) {
    const [s, i] = addrParts(addr);
    // "Bo snapped their own card 1", never "Bo snapped Bo's card 1", which reads as two people.
    if (actor !== undefined && actor !== null && s === actor && s !== this.seat) return `their own card ${i + 1}`;
    const owner = s === this.seat ? "your" : `${seatName(this.summary, s)}'s`;
    return `${owner} card ${i + 1}`;
  }

  /** Who made a move, in the log: "Your bot" for a move of our seat this page did not send
   * (the clock ran out, or the seat is away), so the log never says "You" did it. */
  actorName(ev) {
    if (ev.seat === this.seat && ev.seat !== null && ev.seat !== undefined && ev.bot) return "Your bot";
    return this.name(ev.seat);
  }

  // ---------------------------------------------------------------- legal actions
  legal() {
    return this.view && this.seat !== null ? this.view.legal.map((t) => parseAction(t, this.seat)) : [];
  }

  slotActions() {
    return this.legal().filter((a) => a.verb !== "snap" && a.targets.length > 0);
  }

  snaps() {
    const out = new Map();
    for (const a of this.legal()) if (a.verb === "snap") out.set(a.targets[0], a.text);
    return out;
  }

  /** Whether a tap on a card snaps it straight away. */
  tapSnaps() {
    return this.snaps().size > 0 && (this.snapMode || this.slotActions().length === 0);
  }

  send(action) {
    this.selected = [];
    const ref = this.ctx.act(action);
    if (ref) this.sent = [...this.sent.slice(-8), action];
    if (ref && action.startsWith("snap ")) {
      this.pendingSnaps.add(action.split(" ")[1]);
      this.snapRefs.set(ref, action.split(" ")[1]);
      this.snapMode = false;
    }
    this.render();
  }

  tapSlot(addr) {
    const snaps = this.snaps();
    if (this.tapSnaps() && snaps.has(addr)) {
      this.send(snaps.get(addr));
      return;
    }
    const actions = this.slotActions();
    if (!actions.length) return;
    if (this.selected.includes(addr)) {
      const done = actions.filter((a) => sameMultiset(a.targets, this.selected));
      if (done.length === 1 && this.selected[this.selected.length - 1] === addr) {
        this.send(done[0].text);           // a second tap on the last card confirms
        return;
      }
      this.selected = this.selected.filter((x) => x !== addr);
    } else {
      const next = [...this.selected, addr];
      if (actions.some((a) => containsAll(a.targets, next))) this.selected = next;
      else if (actions.some((a) => a.targets.includes(addr))) this.selected = [addr];
    }
    this.render();
  }

  targetable() {
    const out = new Set();
    for (const a of this.slotActions()) {
      if (!containsAll(a.targets, this.selected)) continue;
      const rest = [...a.targets];
      for (const v of this.selected) rest.splice(rest.indexOf(v), 1);
      for (const v of rest) out.add(v);
    }
    return out;
  }

  // ---------------------------------------------------------------- rendering
  render() {
    const view = this.view;
    if (!view) return;
    const focusKey = document.activeElement && document.activeElement.dataset
      ? document.activeElement.dataset.key : null;
    const now = Date.now();
    for (const [k, f] of this.flash) if (f.until <= now) this.flash.delete(k);
    this.now = now;
    for (const [k, f] of this.fx) if (f.until <= now) this.fx.delete(k);
    this.advanceBanner(now);

    const over = view.phase === "round_over";
    const root = this.root;
    root.dataset.phase = view.phase;
    root.dataset.version = String(this.version);
    root.dataset.actor = view.actor === null || view.actor === undefined ? "" : String(view.actor);
    root.dataset.me = this.seat === null ? "" : String(this.seat);
    root.dataset.round = String((this.summary && this.summary.round) || "");
    root.classList.toggle("assist", this.assist);
    root.classList.toggle("snap-armed", this.tapSnaps());

    const seats = this.seatOrder(view);
    const me = seats[0];
    const others = seats.slice(1);

    // Build the table afresh, then morph the live one into it (taps and focus survive).
    const fresh = h("div", null,
      this.renderTopline(view),
      h("div.opponents", { class: `n${others.length}`, dataset: { key: "opponents" } },
        others.map((s) => this.renderSeat(view, s, false))),
      this.renderCenter(view),
      h("div.my-area", { dataset: { key: "me" } }, this.renderSeat(view, me, this.seat === me),
        this.renderActions(view)),
      over ? this.renderResults(view) : null,
      this.renderLog());
    morphChildren(root, fresh);
    this.keepTopInView();
    const kept = focusKey ? root.querySelector(`[data-key="${CSS.escape(focusKey)}"]`) : null;
    if (kept) kept.focus({ preventScroll: true });
    // A focus on a decision's button follows the decision: with two cards chosen the focus
    // moves from Cancel to the confirm button, so Enter confirms (it cancelled before).
    if (!kept || kept.closest(".actions")) this.focusDecision(view);
    this.schedule(now);
  }

  schedule(now) {
    clearTimeout(this.timer);
    let next = Infinity;
    for (const f of this.flash.values()) next = Math.min(next, f.until);
    for (const f of this.fx.values()) next = Math.min(next, f.until);
    if (this.banner) {
      next = Math.min(next, this.bannerQueue.length ? this.banner.start + BANNER_HOLD_MS : this.banner.until);
    }
    if (this.cambioArmed > now) next = Math.min(next, this.cambioArmed);
    if (next < Infinity) this.timer = setTimeout(() => this.render(), Math.max(30, next - now + 10));
  }

  seatOrder(view) {
    const n = view.grids.length;
    const first = this.seat ?? 0;
    return Array.from({ length: n }, (_, k) => (first + k) % n);
  }

  renderTopline(view) {
    const s = this.summary;
    const round = s && s.target ? `Round ${s.round || 1} · to ${s.target}`
      : s && s.rounds > 1 ? `Round ${s.round || 1} of ${s.rounds}` : null;
    const toggle = h("label.assist-toggle", { title: "Keep the cards you have seen face up, and offer a Hint button" },
      h("input", {
        type: "checkbox", id: "assist", checked: this.assist, dataset: { key: "assist" },
        onchange: (e) => { this.assist = e.target.checked; setAssist(this.assist); this.render(); },
      }),
      h("span", null, "Assist", h("span.long", null, ": keep seen cards visible")));
    const hint = this.liveHint();
    const coach = hint ? null : this.coach(view);
    const bar = h("div.topline", null,
      hint
        ? h("div.status.hinting", { id: "status", "aria-live": "polite" },
          h("span", { id: "hint-text" }, this.hintText(hint)),
          h("button.ghost.hint-close", {
            type: "button", id: "hint-close", dataset: { key: "hint-close" }, "aria-label": "Dismiss the hint",
            onclick: () => this.dismissHint(),
          }, "×"))
        : coach
          ? coachLine(coach.text, () => { skipTutorial(this.ctx.tableId); this.render(); })
          : h("div.status", { id: "status", "aria-live": "polite" }, this.statusText(view)),
      h("div.topline-right", null,
        round ? h("span.badge.round", null, round) : null,
        view.caller !== null && view.caller !== undefined && view.phase !== "round_over"
          ? h("span.badge.called", null, `Cambio: ${this.name(view.caller)} · ${view.final_turns_left} turn${view.final_turns_left === 1 ? "" : "s"} left`)
          : null,
        this.seat !== null ? toggle : null,
        this.seat !== null ? h("button.ghost.keys-help", {
          type: "button", id: "keys-help", dataset: { key: "keys-help" }, title: "Keyboard shortcuts (?)",
          "aria-label": "Keyboard shortcuts", onclick: () => this.toggleHelp(),
        }, "?") : null,
        // The Hint button is with the other buttons (renderActions): here it made the top
        // line taller, and everything under it moved, when it came and went.
      ));
    // The banner has a slot of its own that is always there: a banner coming or going never
    // moves the cards under a finger.
    const slot = h("div.banner-slot", { dataset: { key: "banner" } });
    if (this.banner) {
      const fresh = Date.now() - this.banner.start < 250 ? " fresh" : "";
      slot.append(h("div.banner", { class: `banner-${this.banner.kind}${fresh}`, role: "status" }, this.banner.text));
    }
    return h("div.toprow", { dataset: { key: "top" } }, bar, slot);
  }

  statusText(view) {
    if (view.phase === "round_over") {
      const winners = (view.winners || []).map((w) => this.name(w));
      if (!winners.length) return "Round over.";
      const verb = winners.length === 1 && winners[0] !== "You" ? "wins" : "win";
      return `Round over: ${winners.join(" and ")} ${verb}!`;
    }
    if (this.seat === null) {
      return view.actor === null || view.actor === undefined
        ? "Watching." : `Watching · ${this.name(view.actor)} to play.`;
    }
    const legal = this.legal();
    const verbs = new Set(legal.map((a) => a.verb));
    const snapHint = this.snaps().size && this.tapSnaps() && view.discard.length
      ? ` Snap: tap a card you think matches the ${cardText(view.discard[view.discard.length - 1])}.`
      : "";
    if (view.actor !== this.seat || (verbs.size === 1 && verbs.has("snap"))) {
      const who = this.name(view.actor);
      const doing = {
        turn_start: `${who} to play.`,
        drawn: `${who} holds a card.`,
        power: `${who} is using a power${view.power ? ` (${view.power.replace(/_/g, " ")})` : ""}.`,
        king_decide: `${who} decides whether to switch.`,
        give: `${who} gives a card to ${this.name(this.giveTo(view))}.`,
        poll: "Snap?",
      }[view.phase] || `${who} to play.`;
      return doing + snapHint;
    }
    if (this.selected.length) {
      const done = this.slotActions().filter((a) => sameMultiset(a.targets, this.selected));
      if (done.length) return "Confirm, or tap the card again.";
      return "Now tap the second card.";
    }
    if (verbs.has("give")) return `Right! Give one of your cards to ${this.name(this.giveTo(view))}: tap it.`;
    if (verbs.has("draw")) {
      let t = "Your turn: draw a card";
      if (verbs.has("take")) t += ` or take the ${cardText(view.discard[view.discard.length - 1])}`;
      if (verbs.has("cambio")) t += ", or call Cambio";
      return `${t}.${snapHint}`;
    }
    if (verbs.has("swap")) {
      const held = isCode(view.held) ? cardText(view.held) : "the card";
      return view.held_from_pile
        ? `Tap one of your cards to swap the ${held} in.`
        : `You hold ${held}: tap one of your cards to swap it in, or discard it.`;
    }
    if (verbs.has("discard")) return "Discard the card.";
    if (verbs.has("peek")) {
      const own = this.slotActions().every((a) => a.targets[0].startsWith(`${this.seat}.`));
      return `Power: tap ${own ? "one of your cards" : "another player's card"} to peek at it.`;
    }
    if (verbs.has("look")) return "Power: tap two highlighted cards to look at them.";
    if (verbs.has("switch") && verbs.has("keep")) return "Switch the two cards you looked at, or keep them.";
    if (verbs.has("switch")) return "Power: tap two highlighted cards to switch them.";
    if (verbs.has("pass")) return "Snap a matching card, or pass.";
    return "Your move.";
  }

  /** What the held card's power would do if discarded now, under the buttons. */
  powerNote(view) {
    const what = isCode(view.held) ? powerText(this.rulesCat, view.rules, view.held) : null;
    return what ? h("p.power-note", { id: "power-note", dataset: { key: "power-note" } },
      `Discarding the ${cardText(view.held)} lets you: ${what.charAt(0).toLowerCase()}${what.slice(1)}.`) : null;
  }

  /** Whose card was just snapped away (they receive the card given). */
  giveTo(view) {
    return view.last_snap ? Number(view.last_snap.slot.split(".")[0]) : null;
  }

  shownCode(view, addr, code) {
    if (!isCode(code)) return code === null ? "empty" : "?";
    if (view.phase === "round_over" || this.assist) return code;
    return this.flash.has(addr) ? code : "?";
  }

  renderSeat(view, s, mine) {
    const sum = this.summary;
    const info = sum && sum.seats ? sum.seats.find((x) => x.seat === s) : null;
    const grid = view.grids[s] || [];
    const over = view.phase === "round_over";
    const targets = this.targetable();
    const snaps = this.snaps();
    const tapSnaps = this.tapSnaps();
    const looked = new Set(view.looked || []);
    const marks = this.hintMarks();
    const count = grid.filter((c) => c !== null).length;

    const badges = [];
    // Always there, hidden off turn: the tag moving from seat to seat resized the seats.
    badges.push(h("span.tag.turn", { class: view.turn === s && !over ? "" : "idle", "aria-hidden": view.turn === s && !over ? null : "true" }, "turn"));
    if (view.caller === s) badges.push(h("span.tag.called", null, "Cambio"));
    if (info && info.kind === "bot") badges.push(h("span.tag.bot", null, "bot"));
    if (info && info.away) badges.push(h("span.tag.off", null, "away · bot plays"));
    else if (info && info.kind === "human" && info.connected === false && s !== this.seat) {
      badges.push(h("span.tag.off", null, "offline"));
    }
    if (over && view.scores) {
      const win = (view.winners || []).includes(s);
      badges.push(h("span.tag.score", { class: win ? "win" : "" }, `${view.scores[s]} pts${win ? " · winner" : ""}`));
    }
    const total = sum && Array.isArray(sum.totals) && (sum.rounds > 1 || sum.target) ? sum.totals[s] : null;

    const cells = grid.map((code, i) => {
      const addr = `${s}.${i}`;
      const shown = this.shownCode(view, addr, code);
      const node = cardEl(shown, { button: true, label: this.slotName(addr) });
      node.dataset.addr = addr;
      node.dataset.key = `slot-${addr}`;
      node.append(h("span.slot-no", { "aria-hidden": "true" }, i + 1));
      const isTarget = targets.has(addr);
      const canSnap = tapSnaps && snaps.has(addr);
      if (isTarget) node.classList.add("target");
      if (marks.has(addr)) node.classList.add("hinted");
      if (this.selected.includes(addr)) node.classList.add("selected");
      if (canSnap) node.classList.add("snappable");
      if (looked.has(addr)) node.classList.add("looked");
      const flash = this.flash.get(addr);
      if (flash && isCode(shown) && !over && !this.assist) {
        node.classList.add("flash");
        if (this.now - flash.start < 250) node.classList.add("fresh");
      }
      if (this.assist && isCode(shown) && !over) node.classList.add("remembered");
      if (this.pendingSnaps.has(addr)) node.classList.add("pending");
      const fx = this.fx.get(addr);
      if (fx) {
        node.classList.add(fx.kind);
        if (this.now - fx.start < 250) node.classList.add("fresh");
      }
      const active = isTarget || this.selected.includes(addr) || canSnap;
      if (!active || code === null) {
        node.disabled = code === null || !active;
        if (code !== null && !active) node.setAttribute("aria-disabled", "true");
      }
      node.onclick = () => this.tapSlot(addr);
      return node;
    });
    const cols = grid.length > 4 ? Math.min(4, Math.ceil(grid.length / 2)) : 2;
    return h("section.seat", {
      class: [mine ? "mine" : "", view.turn === s && !over ? "on-turn" : "",
        view.actor === s && !over ? "acting" : ""].join(" "),
      dataset: { seat: s, key: `seat-${s}` },
      "aria-label": `${this.name(s)}'s cards`,
    },
    h("header.seat-head", null,
      s === this.seat
        // "You" stays whole; only the name is cut when the tags need the room ("You (…").
        ? h("span.seat-name.me", null, h("span.you", null, "You"), h("span.real", null, `\u00a0· ${seatName(sum, s)}`))
        : h("span.seat-name", null, seatName(sum, s)),
      h("span.seat-count.muted", null, `${count} card${count === 1 ? "" : "s"}`),
      total !== null && total !== undefined ? h("span.seat-total.muted", null, ` · total ${total}`) : null,
      badges),
    h("div.grid", { style: `--cols:${cols}` }, cells));
  }

  renderCenter(view) {
    const legal = this.legal();
    const has = (v) => legal.some((a) => a.verb === v);
    const top = view.discard.length ? view.discard[view.discard.length - 1] : null;
    const under = view.discard.length > 1 ? view.discard[view.discard.length - 2] : null;

    const deck = cardEl(view.deck > 0 ? "?" : "empty", { button: true, label: `Deck, ${view.deck} cards` });
    deck.classList.add("deck");
    deck.dataset.key = "deck";
    deck.id = "deck";
    if (has("draw")) {
      deck.classList.add("target");
      deck.onclick = () => this.send("draw");
    } else deck.disabled = true;

    const pile = cardEl(top || "empty", { button: true, label: "Discard pile" });
    pile.classList.add("pile");
    pile.dataset.key = "pile";
    pile.id = "pile";
    const pileAction = has("take") ? "take" : has("discard") ? "discard" : null;
    if (pileAction) {
      pile.classList.add("target");
      pile.onclick = () => this.send(pileAction);
    } else pile.disabled = true;
    if (this.snaps().size) pile.classList.add("matchable");
    const marks = this.hintMarks();
    if (marks.has("deck")) deck.classList.add("hinted");
    if (marks.has("pile")) pile.classList.add("hinted");

    const heldBox = h("div.held-box");
    const holding = view.held !== null && view.held !== undefined && view.phase !== "round_over";
    if (!holding) {
      heldBox.classList.add("idle");
      heldBox.append(h("span.label", null, "Hand"), cardEl("empty", { label: "No card held" }));
    } else {
      const holder = this.name(view.turn);
      heldBox.append(
        h("span.label", null, holder === "You" ? "Your card" : `${holder}'s card`),
        (() => {
          const c = cardEl(isCode(view.held) ? view.held : "?", { label: "Held card" });
          c.classList.add("held");
          c.id = "held";
          return c;
        })());
    }

    return h("div.center", { dataset: { key: "center" } },
      h("div.pile-box", null, h("span.label", null, `Deck · ${view.deck}`), deck),
      h("div.pile-box", null,
        h("span.label", null, `Pile · ${view.discard.length}`),
        h("div.pile-stack", null,
          under ? (() => { const u = cardEl(under, { label: "Under the top card" }); u.classList.add("under"); return u; })() : null,
          pile)),
      heldBox);
  }

  renderActions(view) {
    const bar = h("div.actions", { role: "toolbar", "aria-label": "Actions", dataset: { key: "actions" } });
    if (this.seat === null || view.phase === "round_over") return bar;
    const legal = this.legal();
    const now = Date.now();
    const marks = this.hintMarks();
    const button = (key, text, onclick, cls = "") => h("button", {
      type: "button", class: `${cls}${marks.has(key) ? " hinted" : ""}`, dataset: { key: `btn-${key}`, action: key }, onclick,
    }, text);

    // Confirm a completed selection.
    if (this.selected.length) {
      const done = this.slotActions().filter((a) => sameMultiset(a.targets, this.selected));
      for (const a of done) {
        const what = a.targets.map((t) => this.slotName(t)).join(" and ");
        bar.append(button(`confirm-${a.verb}`, `${VERB_WORDS[a.verb] || a.verb}: ${what}`,
          () => this.send(a.text), "primary"));
      }
      bar.append(button("cancel", "Cancel", () => { this.selected = []; this.render(); }, "ghost"));
    }
    const last = [];
    for (const a of legal) {
      if (a.verb === "draw") bar.append(button("draw", "Draw", () => this.send("draw"), "primary"));
      else if (a.verb === "take") {
        const top = view.discard[view.discard.length - 1];
        bar.append(button("take", `Take ${top ? cardText(top) : "the top card"}`, () => this.send("take")));
      } else if (a.verb === "discard") {
        const power = isCode(view.held) ? powerText(this.rulesCat, view.rules, view.held) : null;
        const b = button("discard", `Discard${isCode(view.held) ? ` ${cardText(view.held)}` : ""}`, () => this.send("discard"));
        if (power) b.title = `Power: ${power}`;
        bar.append(b);
        const note = this.powerNote(view);
        if (note) bar.append(note);
      } else if (a.verb === "keep") bar.append(button("keep", "Keep (no switch)", () => this.send("keep")));
      else if (a.verb === "skip") bar.append(button("skip", "Skip the power", () => this.send("skip"), "ghost"));
      else if (a.verb === "pass") bar.append(button("pass", "Pass", () => this.send("pass"), "ghost"));
      else if (a.verb === "cambio") {
        const armed = this.cambioArmed > now;
        // Last: the first button is the turn's usual move (Draw), not the one that ends the
        // round (during the opening peek "Call Cambio" came first, and newcomers pressed it).
        last.push(button("cambio", armed ? "Tap again: call Cambio!" : "Call Cambio", () => {
          if (this.cambioArmed > Date.now()) { this.cambioArmed = 0; this.send("cambio"); } else {
            this.cambioArmed = Date.now() + 3000;
            this.render();
          }
        }, armed ? "danger armed" : "danger"));
      }
    }
    bar.append(...last);
    // A power with one fixed pair (a king's switch after the look) gets a direct button.
    const slotActs = this.slotActions();
    const byVerb = new Map();
    for (const a of slotActs) byVerb.set(a.verb, [...(byVerb.get(a.verb) || []), a]);
    if (!this.selected.length) {
      for (const [verb, acts] of byVerb) {
        if (acts.length === 1 && acts[0].targets.length === 2) {
          const a = acts[0];
          bar.append(button(verb, `${VERB_WORDS[verb] || verb} ${a.targets.map((t) => this.slotName(t)).join(" ↔ ")}`,
            () => this.send(a.text), "primary"));
        }
      }
    }
    // Assist mode: ask the hard bot what it would do here (from your view only). (Always
    // shown, it took a row of its own that a crowded phone table has not got.) The first
    // hint after a server start takes seconds, so the button says it is working until the
    // hint (or the next move) comes.
    if (this.assist && view.actor === this.seat && this.ctx.hint) {
      const busy = this.hintAsked === this.version && !this.liveHint();
      bar.append(h("button.ghost.hint", { type: "button", id: "hint", dataset: { key: "hint" },
        title: "What would the hard bot do? (computed from your view only)",
        disabled: busy, "aria-busy": busy ? "true" : null,
        onclick: () => { this.hintAsked = this.version; this.render(); this.ctx.hint(); } },
      busy ? "Thinking…" : "Hint"));
    }
    if (this.snaps().size && slotActs.length) {
      bar.append(button("snap-mode", this.snapMode ? "Snap: tap a card (cancel)" : "Snap…",
        () => { this.snapMode = !this.snapMode; this.selected = []; this.render(); },
        this.snapMode ? "snap on" : "snap"));
    }
    return bar;
  }

  renderResults(view) {
    const sum = this.summary || {};
    const n = view.grids.length;
    const totals = Array.isArray(sum.totals) ? sum.totals : null;
    const rows = Array.from({ length: n }, (_, s) => s);
    const winners = new Set(view.winners || []);
    const finished = sum.status === "finished";
    const panel = h("section.results", { id: "results", "aria-label": "Results", dataset: { key: "results" } },
      h("h2", null, this.statusText(view)),
      view.end_reason ? h("p.muted", null, END_REASONS[view.end_reason] || view.end_reason) : null,
      h("table.scores", null,
        h("thead", null, h("tr", null, h("th", null, "Player"), h("th", null, "Cards"), h("th", null, "Round"),
          totals && (sum.rounds > 1 || sum.target) ? h("th", null, "Total") : null)),
        h("tbody", null, rows.map((s) => h("tr", { class: winners.has(s) ? "win" : "" },
          h("td", null, s === this.seat ? `You (${seatName(sum, s)})` : seatName(sum, s)),
          h("td", null, String(view.grids[s].filter((c) => c !== null).length)),
          h("td", null, view.scores ? String(view.scores[s]) : "–"),
          totals && (sum.rounds > 1 || sum.target) ? h("td", null, String(totals[s] ?? "")) : null)))));
    const buttons = h("div.result-actions");
    if (finished) {
      if (this.ctx.isHost()) {
        buttons.append(h("button.primary.big", { type: "button", id: "again", onclick: () => this.ctx.again() }, "Play again"));
      } else {
        buttons.append(h("p.muted", null, "The host can start another game with the same seats."));
      }
      const k = sum.game_no !== undefined ? `?game=${sum.game_no}` : "";
      buttons.append(h("a.button", { href: `/r/${encodeURIComponent(this.ctx.tableId)}${k}`, id: "replay-link" }, "Watch the replay"));
    } else {
      buttons.append(nextRoundNote(sum));
    }
    // (append() would write a null as the text "null")
    panel.append(...[matchOver(sum, this.seat), tableHistory(sum, this.seat)].filter(Boolean), buttons);
    return panel;
  }

  renderLog() {
    // The move that ends the round carries the end facts: its own line, then the round-over line.
    const items = this.log.slice(-80).reverse().flatMap((ev) => [
      ...(ev && ev.end ? [h("li.log-end", null, "The round is over.")] : []),
      h("li", null, this.eventLine(ev)),
    ]);
    const details = h("details.log", {
      open: this.logOpen, dataset: { key: "log" },
      ontoggle: (e) => { this.logOpen = e.currentTarget.open; },
    },
    h("summary", null, `Log (${items.length})`),
    h("ol.log-list", { reversed: true }, items));
    return details;
  }

  eventLine(ev) {
    if (!ev || typeof ev !== "object") return "";
    if (ev.deal) return "The cards are dealt; everyone peeks at their two bottom cards.";
    if (typeof ev.action !== "string") return JSON.stringify(ev);
    const who = this.actorName(ev);
    const [verb, a, b] = ev.action.split(" ");
    // What only you saw (a drawn card, a peek, a look, a card you gave) stays in the log in
    // assist mode only: from memory, it is shown for a moment on the table, then gone.
    const seen = (c) => (isCode(c) && this.assist ? [" (", cardSpan(c), ")"] : []);
    const ownSlot = (x) => (ev.seat === this.seat ? `your card ${Number(x) + 1}` : `their card ${Number(x) + 1}`);
    const slot = (x) => this.slotName(x, ev.seat);
    const parts = (() => {
      switch (verb) {
        case "draw": return [`${who} drew a card`, ...seen(ev.card)];
        case "take": return [`${who} took `, cardSpan(ev.card), " from the pile"];
        case "swap": return [`${who} swapped it into ${ownSlot(a)}, discarding `, cardSpan(ev.discarded)];
        case "discard": return [`${who} discarded `, cardSpan(ev.discarded)];
        case "exchange": {
          // Several equal cards went to the pile, or unequal ones were turned face up.
          const gone = Array.isArray(ev.discarded) ? ev.discarded : [];
          const shown = Array.isArray(ev.revealed) ? ev.revealed : [];
          return gone.length
            ? [`${who} exchanged it for `, ...gone.flatMap((c, i) => [i ? ", " : "", cardSpan(c)])]
            : [`${who} tried to exchange unequal cards: `, ...shown.flatMap((c, i) => [i ? ", " : "", cardSpan(c)])];
        }
        case "peek": return [`${who} peeked at ${slot(a)}`, ...seen(ev.card)];
        case "look": {
          const cards = Array.isArray(ev.cards) ? ev.cards : [];
          return [`${who} looked at ${slot(a)} and ${slot(b)}`,
            ...(cards.length && this.assist
              ? [" (", cardSpan(cards[0]), ", ", cardSpan(cards[1]), ")"] : [])];
        }
        case "switch": return [`${who} switched ${slot(a)} and ${slot(b)}`];
        case "keep": return [`${who} kept the cards where they were`];
        case "skip": return [`${who} skipped the power`];
        case "snap": return [`${who} snapped ${slot(a)}: `, cardSpan(ev.card),
          ev.right ? " ✓ right" : " ✗ wrong, penalty card"];
        case "give": return [`${who} gave ${ownSlot(a)}`, ...seen(ev.card)];
        case "cambio": return [`${who} called Cambio!`];
        case "pass": return [`${who} passed`];
        default: return [`${who}: ${ev.action}`];
      }
    })();
    if (ev.reshuffled) parts.push(" · the pile was shuffled into the deck");
    return h("span", null, ...parts);
  }
}

/** The keyboard's shortcuts (the `?` overlay lists them). */
const KEYS = [
  { key: "d", label: "D", action: "draw", what: "Draw a card" },
  { key: "t", label: "T", action: "take", what: "Take the top of the pile" },
  { key: "x", label: "X", action: "discard", what: "Discard the card you hold" },
  { key: "c", label: "C C", action: "cambio", what: "Call Cambio (press twice)" },
  { key: "1", label: "1–9", what: "Your card with that number (swap, peek, give, snap…)" },
  { key: "o", label: "O 1 2", what: "Another player's card: O, the player (1 = the first after you), the card's number" },
  { key: "Enter", label: "Enter", what: "Confirm the cards chosen" },
  { key: "s", label: "S then a card", what: "Snap that card" },
  { key: "w", label: "W", action: "switch", what: "Switch the two cards looked at" },
  { key: "k", label: "K", action: "keep", what: "Keep them where they are" },
  { key: "n", label: "N", action: "skip", what: "Skip the power" },
  { key: "p", label: "P", action: "pass", what: "Pass" },
  { key: "h", label: "H", what: "Hint (assist mode)" },
  { key: "Escape", label: "Esc", what: "Cancel a choice, close this list" },
  { key: "?", label: "?", what: "Show or hide this list" },
];

function sameGame(a, b) {
  return a.players === b.players && a.dealer === b.dealer;
}
