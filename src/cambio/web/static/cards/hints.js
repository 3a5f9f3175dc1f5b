// Assist mode's hint: the server's suggestion for our decision, said in the table's words
// ("swap the 3♦ into your card 2"), standing until its decision is made (the action is no
// longer legal) or dismissed, and what the table outlines for it. Pure.
import { cardText, isCode } from "../cardface.js";
import { parseAction, pileTop, slotName } from "./model.js";

/** @typedef {import("./model.js").CardsState} CardsState */
/** @typedef {import("../messages.js").HintMessage} HintMessage */

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
  const names = a.targets.map((t) => slotName(st, t));
  const held = isCode(v.held) ? `the ${cardText(v.held)}` : "the card you hold";
  const topCode = pileTop(v);
  const top = topCode ? `the ${cardText(topCode)}` : "the top card";
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

/** The status line's text for a hint. @param {CardsState} st @param {HintMessage} hint */
export function hintText(st, hint) {
  let line = `Hint: ${actionWords(st, hint.action)}.`;
  if (typeof hint.score === "number" && typeof hint.win_share === "number") {
    // The estimate in plain words: the round score the hard bot expects you to end with,
    // and how often it sees you win from here.
    const pts = Math.round(hint.score);
    line += ` Expected final score: about ${pts} (lower wins); ${Math.round(hint.win_share * 100)}% chance to win.`;
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
