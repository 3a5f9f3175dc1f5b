// The card table drawn from its state: the top line (status or hint or tutorial tip, the
// badges, the banner), the seats, the deck, the pile and the held card. Functions of the
// state and an environment (the time, the tutorial's tip, where the player's taps go); the
// effects layer morphs the live table into what they return.
import { h, seatName } from "../common.js";
import { cardEl, isCode } from "../cardface.js";
import { coachLine } from "../tutorial.js";
import { hintMarks, hintText, liveHint } from "./hints.js";
import { legal, nameOf, pileTop, seatOrder, slotName, snaps, tapSnaps, targetable } from "./model.js";
import { statusText } from "./status.js";
import { actionsView, resultsView } from "./actions.js";
import { logView } from "./log.js";
import { t } from "../i18n.js";

/** @typedef {import("./model.js").CardsState} CardsState */
/** @typedef {import("../messages.js").CardView} CardView */
/** @typedef {import("./controller.js").Intent} Intent */

/**
 * What the views need besides the state.
 * @typedef {object} ViewEnv
 * @property {number} now                 ms since epoch
 * @property {{ text: string, marks: Set<string> } | null} coach   the tutorial's tip
 * @property {(intent: Intent) => void} dispatch
 * @property {boolean} canHint            the page can ask for hints
 * @property {boolean} isHost
 * @property {string} tableId
 * @property {() => void} onHelp          open the keyboard list
 * @property {() => void} onAgain         Play again
 * @property {() => void} onSkipTutorial
 */

/** The whole table. @param {CardsState} st @param {CardView} view @param {ViewEnv} env */
export function tableView(st, view, env) {
  const seats = seatOrder(st, view);
  const me = seats[0];
  const others = seats.slice(1);
  const marks = hintMarks(st, env.coach);
  return h("div", null,
    toplineView(st, view, env),
    h("div.opponents", { class: `n${others.length}`, dataset: { key: "opponents" } },
      others.map((s) => seatView(st, view, s, marks, env))),
    centerView(st, view, marks, env),
    h("div.my-area", { dataset: { key: "me" } }, seatView(st, view, me, marks, env),
      actionsView(st, view, marks, env)),
    view.phase === "round_over" ? resultsView(st, view, env) : null,
    logView(st, (open) => env.dispatch({ type: "log", open })));
}

/** The status line, the badges, the banner. @param {CardsState} st @param {CardView} view @param {ViewEnv} env */
export function toplineView(st, view, env) {
  const s = st.summary;
  const round = s && s.target ? t("view.roundTo", { round: s.round || 1, target: s.target })
    : s && (s.rounds ?? 0) > 1 ? t("view.roundOf", { round: s.round || 1, rounds: s.rounds ?? 1 }) : null;
  const toggle = h("label.assist-toggle", { title: t("view.assistHelp") },
    h("input", {
      type: "checkbox", id: "assist", checked: st.assist, dataset: { key: "assist" },
      onchange: (/** @type {Event} */ e) => env.dispatch({ type: "assist", on: /** @type {HTMLInputElement} */ (e.target).checked }),
    }),
    h("span", null, t("view.assist"), h("span.long", null, t("view.assistLong"))));
  const hint = liveHint(st);
  const coach = hint ? null : env.coach;
  const bar = h("div.topline", null,
    hint
      ? h("div.status.hinting", { id: "status", "aria-live": "polite" },
        h("span", { id: "hint-text" }, hintText(st, hint)),
        h("button.ghost.hint-close", {
          type: "button", id: "hint-close", dataset: { key: "hint-close" }, "aria-label": t("view.dismissHint"),
          onclick: () => env.dispatch({ type: "dismiss-hint" }),
        }, "×"))
      : coach
        ? coachLine(coach.text, env.onSkipTutorial)
        : h("div.status", { id: "status", "aria-live": "polite" }, statusText(st, view)),
    h("div.topline-right", null,
      round ? h("span.badge.round", null, round) : null,
      view.caller !== null && view.caller !== undefined && view.phase !== "round_over"
        ? h("span.badge.called", null, t("view.called", { who: nameOf(st, view.caller), count: view.final_turns_left ?? 0 }))
        : null,
      st.seat !== null ? toggle : null,
      st.seat !== null ? h("button.ghost.keys-help", {
        type: "button", id: "keys-help", dataset: { key: "keys-help" }, title: t("view.shortcutsTitle"),
        "aria-label": t("view.shortcuts"), onclick: env.onHelp,
      }, "?") : null,
      // The Hint button is with the other buttons (actions.js): here it made the top line
      // taller, and everything under it moved, when it came and went.
    ));
  // The banner has a slot of its own that is always there: a banner coming or going never
  // moves the cards under a finger.
  const slot = h("div.banner-slot", { dataset: { key: "banner" } });
  if (st.banner) {
    const fresh = env.now - st.banner.start < 250 ? " fresh" : "";
    slot.append(h("div.banner", { class: `banner-${st.banner.kind}${fresh}`, role: "status" }, st.banner.text));
  }
  return h("div.toprow", { dataset: { key: "top" } }, bar, slot);
}

/** What a card shows: its code while we may see it, else a back ("?") or "empty".
 * @param {CardsState} st @param {CardView} view @param {string} addr @param {string | null} code */
export function shownCode(st, view, addr, code) {
  if (!isCode(code)) return code === null ? "empty" : "?";
  if (view.phase === "round_over" || st.assist) return /** @type {string} */ (code);
  return st.flash[addr] ? /** @type {string} */ (code) : "?";
}

/** A seat's badges. @param {CardsState} st @param {CardView} view @param {number} s */
function badgesOf(st, view, s) {
  const sum = st.summary;
  const info = sum && sum.seats ? sum.seats.find((x) => x.seat === s) : null;
  const over = view.phase === "round_over";
  const badges = [];
  // Always there, hidden off turn: the tag moving from seat to seat resized the seats.
  badges.push(h("span.tag.turn", { class: view.turn === s && !over ? "" : "idle", "aria-hidden": view.turn === s && !over ? null : "true" }, t("view.turnTag")));
  if (view.caller === s) badges.push(h("span.tag.called", null, "Cambio"));
  if (info && info.kind === "bot") badges.push(h("span.tag.bot", null, t("view.botTag")));
  if (info && info.away) badges.push(h("span.tag.off", null, t("view.awayTag")));
  else if (info && info.kind === "human" && info.connected === false && s !== st.seat) {
    badges.push(h("span.tag.off", null, t("view.offlineTag")));
  }
  if (over && view.scores) {
    const win = (view.winners || []).includes(s);
    badges.push(h("span.tag.score", { class: win ? "win" : "" }, t(win ? "view.pointsWinner" : "view.points", { count: view.scores[s] })));
  }
  return badges;
}

/** What a tap on a card may do now, worked out once per seat.
 * @typedef {{ targets: Set<string>, snappable: Set<string>, marks: Set<string> }} Taps */

/** One card of a grid. @param {CardsState} st @param {CardView} view @param {string} addr
 * @param {string | null} code @param {number} i @param {Taps} taps @param {ViewEnv} env */
function slotView(st, view, addr, code, i, taps, env) {
  const over = view.phase === "round_over";
  const shown = shownCode(st, view, addr, code);
  const node = cardEl(shown, { button: true, label: slotName(st, addr) });
  node.dataset.addr = addr;
  node.dataset.key = `slot-${addr}`;
  node.append(h("span.slot-no", { "aria-hidden": "true" }, i + 1));
  const isTarget = taps.targets.has(addr);
  const canSnap = taps.snappable.has(addr);
  const cls = node.classList;
  if (isTarget) cls.add("target");
  if (taps.marks.has(addr)) cls.add("hinted");
  if (st.selected.includes(addr)) cls.add("selected");
  if (canSnap) cls.add("snappable");
  if ((view.looked || []).includes(addr)) cls.add("looked");
  const flash = st.flash[addr];
  if (flash && isCode(shown) && !over && !st.assist) {
    cls.add("flash");
    if (env.now - flash.start < 250) cls.add("fresh");
  }
  if (st.assist && isCode(shown) && !over) cls.add("remembered");
  if (st.pendingSnaps.includes(addr)) cls.add("pending");
  const fx = st.fx[addr];
  if (fx) {
    cls.add(fx.kind);
    if (env.now - fx.start < 250) cls.add("fresh");
  }
  const active = isTarget || st.selected.includes(addr) || canSnap;
  if (!active || code === null) {
    /** @type {HTMLButtonElement} */ (node).disabled = code === null || !active;
    if (code !== null && !active) node.setAttribute("aria-disabled", "true");
  }
  node.onclick = () => env.dispatch({ type: "tap", addr });
  return node;
}

/** A seat: its name, badges and grid. @param {CardsState} st @param {CardView} view
 * @param {number} s @param {Set<string>} marks @param {ViewEnv} env */
export function seatView(st, view, s, marks, env) {
  const sum = st.summary;
  const grid = view.grids[s] || [];
  const over = view.phase === "round_over";
  const count = grid.filter((c) => c !== null).length;
  const total = sum && Array.isArray(sum.totals) && ((sum.rounds ?? 0) > 1 || sum.target) ? sum.totals[s] : null;
  const taps = { targets: targetable(st), snappable: tapSnaps(st) ? new Set(snaps(st).keys()) : new Set(), marks };
  const cells = grid.map((code, i) => slotView(st, view, `${s}.${i}`, code, i, taps, env));
  const cols = grid.length > 4 ? Math.min(4, Math.ceil(grid.length / 2)) : 2;
  return h("section.seat", {
    class: [s === st.seat ? "mine" : "", view.turn === s && !over ? "on-turn" : "",
      view.actor === s && !over ? "acting" : ""].join(" "),
    dataset: { seat: s, key: `seat-${s}` },
    "aria-label": s === st.seat ? t("view.yourCards") : t("view.someonesCards", { name: nameOf(st, s) }),
  },
  h("header.seat-head", null,
    s === st.seat
      // "You" stays whole; only the name is cut when the tags need the room ("You (…").
      ? h("span.seat-name.me", null, h("span.you", null, t("common.you")), h("span.real", null, `\u00a0· ${seatName(sum, s)}`))
      // A narrow seat cuts the name (fit.css): it is whole in the title.
      : h("span.seat-name", { title: seatName(sum, s) }, seatName(sum, s)),
    h("span.seat-count.muted", null, t("view.cards", { count })),
    total !== null && total !== undefined ? h("span.seat-total.muted", null, ` · ${t("view.total", { total })}`) : null,
    badgesOf(st, view, s)),
  h("div.grid", { style: `--cols:${cols}` }, cells));
}

/** The deck, the pile and the held card. @param {CardsState} st @param {CardView} view
 * @param {Set<string>} marks @param {ViewEnv} env */
export function centerView(st, view, marks, env) {
  const verbs = new Set(legal(st).map((a) => a.verb));
  const top = pileTop(view);
  const under = view.discard.length > 1 ? view.discard[view.discard.length - 2] : null;

  const deck = /** @type {HTMLButtonElement} */ (cardEl(view.deck > 0 ? "?" : "empty", { button: true, label: t("view.deckLabel", { count: view.deck }) }));
  deck.classList.add("deck");
  deck.dataset.key = "deck";
  deck.id = "deck";
  if (verbs.has("draw")) {
    deck.classList.add("target");
    deck.onclick = () => env.dispatch({ type: "send", action: "draw" });
  } else deck.disabled = true;

  const pile = /** @type {HTMLButtonElement} */ (cardEl(top || "empty", { button: true, label: t("view.pileLabel") }));
  pile.classList.add("pile");
  pile.dataset.key = "pile";
  pile.id = "pile";
  const pileAction = verbs.has("take") ? "take" : verbs.has("discard") ? "discard" : null;
  if (pileAction) {
    pile.classList.add("target");
    pile.onclick = () => env.dispatch({ type: "send", action: pileAction });
  } else pile.disabled = true;
  if (snaps(st).size) pile.classList.add("matchable");
  if (marks.has("deck")) deck.classList.add("hinted");
  if (marks.has("pile")) pile.classList.add("hinted");

  const heldBox = h("div.held-box");
  const holding = view.held !== null && view.held !== undefined && view.phase !== "round_over";
  if (!holding) {
    heldBox.classList.add("idle");
    heldBox.append(h("span.label", null, t("view.hand")), cardEl("empty", { label: t("view.noCardHeld") }));
  } else {
    const holder = nameOf(st, view.turn);
    const held = cardEl(isCode(view.held) ? /** @type {string} */ (view.held) : "?", { label: t("view.heldCard") });
    held.classList.add("held");
    held.id = "held";
    heldBox.append(h("span.label", null, holder === t("common.you") ? t("view.yourCard") : t("view.someonesCard", { name: holder })), held);
  }
  /** @type {HTMLElement | null} */
  let below = null;
  if (under) {
    below = cardEl(under, { label: t("view.underTop") });
    below.classList.add("under");
  }
  return h("div.center", { dataset: { key: "center" } },
    h("div.pile-box", null, h("span.label", null, `${t("view.deck")} · ${view.deck}`), deck),
    h("div.pile-box", null,
      h("span.label", null, `${t("view.pile")} · ${view.discard.length}`),
      h("div.pile-stack", null, below, pile)),
    heldBox);
}
