// The table's chat and quick emotes (protocol 2: `chat_log` on arrival, then a `chat` per
// line; the page sends `{type: "chat", text}` or `{type: "chat", emote}`).
//
// Every line goes into the page as text nodes: whatever a player types — markup included —
// is shown exactly as typed and never interpreted as HTML.
import { h, seatName } from "./common.js";
import { t } from "./i18n.js";

/** @typedef {import("./protocol_types.js").ChatLine} ChatLine */
/** @typedef {import("./protocol_types.js").ChatSay} ChatSay */
/**
 * The table page's hooks: `send` says whether the message went out.
 * `lineMenu(line)`: the menu of another seat's line (mute, block, report: social.js);
 * `claimed()`: whether this browser's player has an account (false: quick phrases only at
 * Play now tables).
 * @typedef {{ seat: () => number | null, summary: () => import("./messages.js").TableSummary | null,
 *   send: (msg: ChatSay) => boolean, lineMenu?: (line: ChatLine) => HTMLElement | null,
 *   claimed?: () => boolean | null }} ChatContext
 */

// The server sends an emote's id, so each reader sees it in their own language.
const EMOTES = ["hi", "gg", "nice", "oops", "thanks", "hurry"].map((id) => [id, t(`chat.emote.${id}`)]);
const MAX_CHARS = 200;
const KEPT = 100;

export class ChatView {
  /**
   * @param {HTMLElement} el  where the chat panel goes
   * @param {ChatContext} ctx
   */
  constructor(el, ctx) {
    this.el = el;
    this.ctx = ctx;
    /** @type {ChatLine[]} */
    this.lines = [];
    this.unread = 0;
    this.list = h("ol.chat-lines", { id: "chat-lines", "aria-live": "polite" });
    this.input = /** @type {HTMLInputElement} */ (h("input", {
      id: "chat-input", type: "text", maxlength: MAX_CHARS, autocomplete: "off",
      placeholder: t("chat.placeholder"), "aria-label": t("chat.message"),
    }));
    this.form = h("form.chat-form", {
      onsubmit: (/** @type {SubmitEvent} */ e) => { e.preventDefault(); this.sendText(); },
    }, this.input, h("button", { type: "submit", id: "chat-send" }, t("chat.send")));
    this.emotes = h("div.chat-emotes", null, EMOTES.map(([id, words]) => h("button.ghost", {
      type: "button", dataset: { emote: id }, onclick: () => this.ctx.send({ type: "chat", emote: id }),
    }, words)));
    this.note = h("p.muted.chat-note");
    this.title = h("summary", null, t("chat.title"));
    this.panel = /** @type {HTMLDetailsElement} */ (h("details.chat", {
      id: "chat", open: !matchMedia("(max-width: 760px)").matches,
      ontoggle: () => { if (this.panel.open) { this.unread = 0; this.renderTitle(); } },
    }, this.title, this.list, this.note, this.emotes, this.form));
    this.shown = false;
  }

  /** Whether this page may read the chat: a seat, or a spectator at a table that allows it. */
  readable() {
    const s = this.ctx.summary();
    return this.ctx.seat() !== null || !!(s && s.spectator_chat);
  }

  /** @param {import("./protocol_types.js").ChatLog} msg */
  chatLog(msg) {
    this.lines = Array.isArray(msg.lines) ? msg.lines.slice(-KEPT) : [];
    this.render();
  }

  /** @param {import("./protocol_types.js").Chat} msg */
  chat(msg) {
    if (this.lines.some((x) => x.n === msg.n)) return;
    this.lines.push(msg);
    if (this.lines.length > KEPT) this.lines.splice(0, this.lines.length - KEPT);
    if (!this.panel.open) this.unread += 1;
    this.render();
  }

  /** The seat's player was muted or blocked here: their lines go from this page too (the
   * server sends no more of them). */
  /** @param {number} seat */
  hideSeat(seat) {
    this.lines = this.lines.filter((x) => x.seat !== seat);
    this.render();
  }

  sendText() {
    const text = this.input.value.trim();
    if (!text) return;
    if (this.ctx.send({ type: "chat", text })) this.input.value = "";
  }

  renderTitle() {
    const text = this.unread ? t("chat.unread", { count: this.unread }) : t("chat.count", { count: this.lines.length });
    if (this.title.textContent !== text) this.title.textContent = text;
  }

  render() {
    if (!this.readable()) {
      if (this.shown) { this.panel.remove(); this.shown = false; }
      return;
    }
    if (!this.shown) { this.el.append(this.panel); this.shown = true; }
    const seated = this.ctx.seat() !== null;
    const summary = this.ctx.summary();
    // Play now's strangers: free text needs a claimed account (the server refuses it).
    const phrasesOnly = seated && !!(summary && summary.strangers) && !!this.ctx.claimed && this.ctx.claimed() === false;
    this.form.hidden = !seated || phrasesOnly;
    this.emotes.hidden = !seated;
    this.note.textContent = !seated ? t("chat.watching")
      : phrasesOnly ? t("social.chat.phrases_only") : "";
    this.note.hidden = !this.note.textContent;
    const stick = this.list.scrollTop + this.list.clientHeight >= this.list.scrollHeight - 4;
    this.list.replaceChildren(...this.lines.map((x) => h("li", {
      class: x.emote ? "emote" : "", dataset: { n: String(x.n), seat: String(x.seat) },
    },
    h("strong.chat-who", null, x.seat === this.ctx.seat() ? t("common.you") : (x.name || seatName(summary, x.seat))),
    ": ",
    h("span.chat-text", null, x.emote && EMOTES.some(([id]) => id === x.emote) ? t(`chat.emote.${x.emote}`) : x.text),
    seated && x.seat !== this.ctx.seat() && this.ctx.lineMenu ? this.ctx.lineMenu(x) : null)));
    if (stick) this.list.scrollTop = this.list.scrollHeight;
    this.renderTitle();
  }
}
