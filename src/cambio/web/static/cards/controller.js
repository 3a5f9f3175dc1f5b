// The card table's controller: the state and the events it handles -- the server's
// messages, the player's taps and keys, time passing -- each giving a new state and the
// actions to send. Pure (no DOM, no socket, no clock: `now` is an argument), so every
// transition runs in node (tests/js). The effects layer (cards.js) feeds it and sends.
import { cardText, isCode } from "../cardface.js";
import { t } from "../i18n.js";
import { advanceBanner, bannerWake, showBanner } from "./banners.js";
import { liveHint } from "./hints.js";
import {
  actorName, addrParts, completed, containsAll, nameOf, slotActions, slotName, snaps, tapSnaps,
} from "./model.js";

/** @typedef {import("./model.js").CardsState} CardsState */
/** @typedef {import("../messages.js").CardView} CardView */
/** @typedef {import("../messages.js").CardEvent} CardEvent */
/** @typedef {import("../messages.js").StateMessage} StateMessage */
/** @typedef {import("../messages.js").UpdateMessage} UpdateMessage */
/** @typedef {import("../messages.js").HintMessage} HintMessage */
/** @typedef {import("../messages.js").ErrorMessage} ErrorMessage */

export const FLASH_MS = 3000;     // a peek, a look, a drawn or snapped card: shown this long
export const OPENING_MS = 5000;   // the opening peek of the two bottom cards
export const FX_MS = 1600;        // a snap's result on the card
export const CAMBIO_ARM_MS = 3000; // "Call Cambio" waits this long for its second tap

/**
 * What the player did, as the views and the keyboard report it.
 * @typedef {{ type: "tap", addr: string } | { type: "send", action: string }
 *   | { type: "cancel" } | { type: "cambio" } | { type: "snap-mode" } | { type: "snap-key" }
 *   | { type: "escape" } | { type: "ask-hint" } | { type: "dismiss-hint" }
 *   | { type: "assist", on: boolean } | { type: "log", open: boolean }} Intent
 */

/** A transition's result: the new state, the actions to send, whether to ask for a hint.
 * @typedef {{ state: CardsState, send: string[], askHint?: boolean }} Step */

/** @param {CardsState} state @param {string[]} [send] @returns {Step} */
const step = (state, send = []) => ({ state, send });

/** Every card code of a view, with its address. @param {CardView} view */
function codes(view) {
  /** @type {[string, string][]} */
  const out = [];
  view.grids.forEach((grid, s) => grid.forEach((code, i) => {
    if (isCode(code)) out.push([`${s}.${i}`, /** @type {string} */ (code)]);
  }));
  return out;
}

/** Cards shown now that were not before (a peek, a look, a card given) flash for a while.
 * @param {Record<string, import("./model.js").Flash>} flash @param {CardView | null} prev
 * @param {CardView} view @param {number} now */
function flashChanges(flash, prev, view, now) {
  const out = { ...flash };
  for (const [addr, code] of codes(view)) {
    const [s, i] = addrParts(addr);
    const before = prev && prev.grids[s] ? prev.grids[s][i] : undefined;
    if (code !== before) out[addr] = { start: now, until: now + FLASH_MS };
  }
  return out;
}

/** @param {CardView} a @param {CardView} b */
function sameGame(a, b) {
  return a.players === b.players && a.dealer === b.dealer;
}

/**
 * The server's whole view (a connect, a resync, a new deal). `scrollTop`: a new deal after
 * a reveal (the next round, a rematch), so the table, status and clock come back into view.
 * @param {CardsState} st @param {StateMessage} msg @param {number} now
 * @returns {{ state: CardsState, scrollTop: boolean }}
 */
export function onState(st, msg, now) {
  const prev = st.view;
  let flash = st.flash;
  if (msg.version === 0 && msg.view.phase !== "round_over") {
    // A fresh deal: the opening peek.
    flash = Object.fromEntries(codes(msg.view).map(([addr]) => [addr, { start: now, until: now + OPENING_MS }]));
  } else if (prev && sameGame(prev, msg.view)) {
    flash = flashChanges(flash, prev, msg.view, now);
  }
  const state = {
    ...st, view: msg.view, version: msg.version, log: Array.isArray(msg.log) ? [...msg.log] : [],
    selected: [], snapMode: false, pendingSnaps: [], snapRefs: [], movedAt: null, flash,
  };
  return { state, scrollTop: !!prev && prev.phase === "round_over" && msg.view.phase !== "round_over" };
}

/** An event of our seat that this page did not send was made by our seat's bot.
 * @param {CardsState} st @param {CardEvent} ev @returns {[CardEvent, string[]]} */
function markOwn(st, ev) {
  if (!ev || typeof ev.action !== "string" || ev.seat !== st.seat || st.seat === null) return [ev, st.sent];
  const i = st.sent.indexOf(ev.action);
  if (i >= 0) return [ev, st.sent.slice(i + 1)];
  return [{ ...ev, bot: true }, st.sent];
}

/** A snap or a Cambio call gets its banner; a snap also its mark on the card.
 * @param {CardsState} st @param {CardEvent | null | undefined} event @param {number} now */
function react(st, event, now) {
  if (!event || typeof event.action !== "string") return st;
  const [verb, arg] = event.action.split(" ");
  if (verb === "snap" && arg) {
    const right = event.right === true;
    const mine = event.seat === st.seat;
    const card = isCode(event.card) ? cardText(event.card) : "?";
    const next = {
      ...st,
      pendingSnaps: st.pendingSnaps.filter((a) => a !== arg),
      snapRefs: mine ? st.snapRefs.filter((r) => r.addr !== arg) : st.snapRefs,
      fx: { ...st.fx, [arg]: { kind: right ? "snap-right" : "snap-wrong", start: now, until: now + FX_MS } },
      snapMode: right && mine ? false : st.snapMode,
    };
    return showBanner(next, `${t("banner.snap", { who: actorName(st, event), slot: slotName(st, arg, event.seat), card })} — ${right ? t("banner.right") : t("log.snapWrong")}`,
      right ? "good" : "bad", now);
  }
  if (verb === "cambio") return showBanner(st, t("log.cambio", { who: actorName(st, event) }), "call", now);
  return st;
}

/** One accepted move and the view after it. @param {CardsState} st @param {UpdateMessage} msg
 * @param {number} now @returns {CardsState} */
export function onUpdate(st, msg, now) {
  const prev = st.view;
  /** @type {CardsState} */
  let next = { ...st, view: msg.view, version: msg.version, movedAt: null };
  if (msg.event) {
    const [ev, sent] = markOwn(st, msg.event);
    next = { ...next, log: [...st.log, ev], sent };
  }
  next = { ...next, flash: flashChanges(st.flash, prev, msg.view, now) };
  next = react(next, msg.event, now);
  // A selection that no longer fits the legal actions is dropped.
  if (next.selected.length && !slotActions(next).some((a) => containsAll(a.targets, next.selected))) {
    next = { ...next, selected: [] };
  }
  if (!msg.view.legal.some((a) => a.startsWith("snap "))) next = { ...next, snapMode: false };
  return next;
}

/** An action went out (`ref` null: it could not be sent). @param {CardsState} st
 * @param {string} action @param {string | number | null} ref @returns {CardsState} */
export function sent(st, action, ref) {
  let next = { ...st, selected: [] };
  if (ref) next = { ...next, sent: [...st.sent.slice(-8), action], movedAt: st.version };
  if (ref && action.startsWith("snap ")) {
    const addr = action.split(" ")[1];
    next = { ...next, pendingSnaps: [...st.pendingSnaps, addr], snapRefs: [...st.snapRefs, { ref, addr }], snapMode: false };
  }
  return next;
}

/**
 * A refused action. `text`: what to say for it, or null for the generic words. The page
 * offers only legal snaps, so a refused one lost a race: the engine's reason names slots,
 * not people, so it is said here.
 * @param {CardsState} st @param {ErrorMessage | null} err
 * @returns {{ state: CardsState, text: string | null }}
 */
export function rejected(st, err) {
  const found = err ? st.snapRefs.find((r) => r.ref === err.ref) : undefined;
  const state = {
    ...st, pendingSnaps: [], snapRefs: err ? st.snapRefs.filter((r) => r.ref !== err.ref) : st.snapRefs,
    movedAt: null,
  };
  if (!found || !err || err.code !== "illegal") return { state, text: null };
  const addr = found.addr;
  const won = [...st.log].reverse().find((ev) => ev && typeof ev.action === "string"
    && ev.action === `snap ${addr}` && ev.seat !== st.seat);
  const text = won
    ? t("snap.tooLateWho", { who: nameOf(st, won.seat), slot: slotName(st, addr) })
    : t("snap.tooLate");
  return { state, text };
}

/** A tap on a card: snap it, choose it, unchoose it, or confirm the choice.
 * @param {CardsState} st @param {string} addr @returns {Step} */
export function tapSlot(st, addr) {
  const snapOf = snaps(st);
  const snap = snapOf.get(addr);
  if (tapSnaps(st) && snap) return step(st, [snap]);
  const actions = slotActions(st);
  if (!actions.length) return step(st);
  if (st.selected.includes(addr)) {
    const done = completed(st);
    if (done.length === 1 && st.selected[st.selected.length - 1] === addr) {
      return step(st, [done[0].text]);   // a second tap on the last card confirms
    }
    return step({ ...st, selected: st.selected.filter((x) => x !== addr) });
  }
  const next = [...st.selected, addr];
  if (actions.some((a) => containsAll(a.targets, next))) return step({ ...st, selected: next });
  if (actions.some((a) => a.targets.includes(addr))) return step({ ...st, selected: [addr] });
  return step(st);
}

/** Handle what the player did. @param {CardsState} st @param {Intent} intent @param {number} now
 * @returns {Step} */
export function handle(st, intent, now) {
  switch (intent.type) {
    case "tap": return tapSlot(st, intent.addr);
    case "send": return step(st, [intent.action]);
    case "cancel": return step({ ...st, selected: [] });
    case "cambio":
      // Two taps: the first arms the button, a second within CAMBIO_ARM_MS calls.
      if (st.cambioArmed > now) return step({ ...st, cambioArmed: 0 }, ["cambio"]);
      return step({ ...st, cambioArmed: now + CAMBIO_ARM_MS });
    case "snap-mode": return step({ ...st, snapMode: !st.snapMode, selected: [] });
    case "snap-key": return snaps(st).size ? step({ ...st, snapMode: true, selected: [] }) : step(st);
    case "escape":
      if (st.keyPrefix) return step({ ...st, keyPrefix: null });
      if (st.selected.length || st.snapMode) return step({ ...st, selected: [], snapMode: false });
      if (st.hint) return step({ ...st, hint: null });
      return step(st);
    case "ask-hint": return { state: { ...st, hintAsked: st.version }, send: [], askHint: true };
    case "dismiss-hint": return step({ ...st, hint: null });
    case "assist": return step({ ...st, assist: intent.on });
    case "log": return step({ ...st, logOpen: intent.open });
    default: return step(st);
  }
}

/** The server's hint answer. @param {CardsState} st @param {HintMessage} msg */
export function onHint(st, msg) {
  if (!msg || typeof msg.action !== "string") return st;
  return { ...st, hint: { ...msg, version: st.version } };
}

/** Time passed: flashes and snap marks end, the banner moves on, a stale hint goes.
 * @param {CardsState} st @param {number} now @returns {CardsState} */
export function tick(st, now) {
  const keep = /** @template {{ until: number }} T @param {Record<string, T>} m */ (m) =>
    Object.fromEntries(Object.entries(m).filter(([, f]) => f.until > now));
  const next = advanceBanner({ ...st, flash: keep(st.flash), fx: keep(st.fx) }, now);
  return next.hint && !liveHint(next) ? { ...next, hint: null } : next;
}

/** When the table must be drawn again by itself (Infinity: not until something happens).
 * @param {CardsState} st @param {number} now */
export function wakeAt(st, now) {
  let next = bannerWake(st);
  for (const f of Object.values(st.flash)) next = Math.min(next, f.until);
  for (const f of Object.values(st.fx)) next = Math.min(next, f.until);
  if (st.cambioArmed > now) next = Math.min(next, st.cambioArmed);
  return next;
}
