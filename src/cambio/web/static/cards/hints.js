// Assist mode's hint: the server's suggestion for our decision, said in the table's words
// ("swap the 3♦ into your card 2"), standing until its decision is made (the action is no
// longer legal) or dismissed, and what the table outlines for it. Pure.
import { cardText, isCode } from "../cardface.js";
import { t } from "../i18n.js";
import { parseAction, pileTop, slotName } from "./model.js";

/** @typedef {import("./model.js").CardsState} CardsState */
/** @typedef {import("../messages.js").HintMessage} HintMessage */

/**
 * Whether the table offers hints: not where its result is compared with other players'
 * (a rated table, the daily deal), since a hint is the hard bot choosing the move; the
 * server refuses them there too.
 * @param {import("../messages.js").TableSummary | null | undefined} summary
 */
export function hintsOffered(summary) {
  return !(summary && summary.hints_off);
}

/** The standing hint, or null once its decision is made. @param {CardsState} st */
export function liveHint(st) {
  const v = st.view;
  if (!st.hint || !v || v.actor !== st.seat || !v.legal.includes(st.hint.action)) return null;
  return st.hint;
}

/** What an action means, with the numbers and names on the screen.
 * @param {CardsState} st @param {string} text */
export function actionWords(st, text) {
  const v = st.view;
  if (!v) return text;
  const a = parseAction(text, st.seat);
  const names = a.targets.map((x) => slotName(st, x));
  const held = isCode(v.held) ? t("hint.theCard", { card: cardText(v.held) }) : t("hint.heldCard");
  const topCode = pileTop(v);
  const top = topCode ? t("hint.theCard", { card: cardText(topCode) }) : t("hint.topCard");
  switch (a.verb) {
    case "draw": return t("hint.draw");
    case "take": return t("hint.take", { card: top });
    case "cambio": return t("hint.cambio");
    case "swap": return t("hint.swap", { card: held, slot: names[0] });
    case "exchange": return t("hint.exchange", { card: held, slots: names.join(t("common.and")) });
    case "discard": return t("hint.discard", { card: held });
    case "peek": return t("hint.peek", { slot: names[0] });
    case "look": return t("hint.look", { slots: names.join(t("common.and")) });
    case "switch": return t("hint.switch", { slots: names.join(t("common.and")) });
    case "keep": return t("hint.keep");
    case "skip": return t("hint.skip");
    case "give": return t("hint.give", { slot: names[0] });
    case "pass": return t("hint.pass");
    case "snap": return t("hint.snap", { slot: names[0] });
    default: return text;
  }
}

/** The status line's text for a hint. @param {CardsState} st @param {HintMessage} hint */
export function hintText(st, hint) {
  let line = t("hint.line", { action: actionWords(st, hint.action) });
  if (typeof hint.score === "number" && typeof hint.win_share === "number") {
    // The estimate in plain words: the round score the hard bot expects you to end with,
    // and how often it sees you win from here (the match, when the hint knew its standing:
    // near a target the two differ).
    const pts = Math.round(hint.score);
    const key = hint.match ? "hint.estimateMatch" : "hint.estimate";
    line += ` ${t(key, { score: pts, share: Math.round(hint.win_share * 100) })}`;
  }
  return line;
}

/**
 * What the table outlines: the standing hint's cards, "deck", "pile" and button, else the
 * tutorial tip's marks.
 * @param {CardsState} st @param {{ text?: string, marks: Set<string> } | null} coach
 * @returns {Set<string>}
 */
export function hintMarks(st, coach) {
  const hint = liveHint(st);
  if (!hint) return coach ? coach.marks : new Set();
  const a = parseAction(hint.action, st.seat);
  const out = new Set([...a.targets, a.verb]);
  if (a.verb === "draw") out.add("deck");
  if (a.verb === "take" || a.verb === "discard") out.add("pile");
  return out;
}

/** Whether the Hint button waits for its answer. @param {CardsState} st */
export function hintBusy(st) {
  return st.hintAsked === st.version && !liveHint(st);
}
