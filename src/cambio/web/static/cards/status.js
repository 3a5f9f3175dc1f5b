// The status line's words: whose move it is and what ours asks for, in the table's words.
// Pure: a function of the state.
import { cardText, isCode } from "../cardface.js";
import { completed, giveTo, legal, nameOf, pileTop, slotActions, snaps, tapSnaps } from "./model.js";
import { hasKey, t } from "../i18n.js";

/** @typedef {import("./model.js").CardsState} CardsState */
/** @typedef {import("../messages.js").CardView} CardView */

export const END_REASONS = /** @type {Record<string, string>} */ ({
  cambio: t("end.cambio"),
  deck_exhausted: t("end.deck"),
  turn_cap: t("end.turnCap"),
});

/** @param {CardsState} st @param {CardView} view */
function othersMove(st, view) {
  const who = nameOf(st, view.actor);
  const doing = /** @type {Record<string, string>} */ ({
    turn_start: t("status.toPlay", { who }),
    drawn: t("status.holds", { who }),
    power: view.power && hasKey(`powerName.${view.power}`)
      ? t("status.usingPower", { who, power: t(`powerName.${view.power}`) }) : t("status.usingPowerPlain", { who }),
    king_decide: t("status.kingDecides", { who }),
    give: t("status.gives", { who, to: nameOf(st, giveTo(view)) }),
    poll: t("status.snapPoll"),
  });
  return doing[view.phase] || t("status.toPlay", { who });
}

/** The status line. @param {CardsState} st @param {CardView} view */
export function statusText(st, view) {
  if (view.phase === "round_over") {
    const winners = (view.winners || []).map((w) => nameOf(st, w));
    if (!winners.length) return t("status.roundOver");
    if (winners.length === 1 && view.winners?.[0] === st.seat) return t("status.youWin");
    return t("status.winners", { count: winners.length, names: winners.join(t("common.and")) });
  }
  if (st.seat === null) {
    return view.actor === null || view.actor === undefined
      ? t("status.watching") : t("status.watchingTurn", { who: nameOf(st, view.actor) });
  }
  const verbs = new Set(legal(st).map((a) => a.verb));
  const top = pileTop(view);
  const snapHint = snaps(st).size && tapSnaps(st) && top
    ? ` ${t("status.snapHint", { card: cardText(top) })}`
    : "";
  if (view.actor !== st.seat || (verbs.size === 1 && verbs.has("snap"))) return othersMove(st, view) + snapHint;
  if (st.selected.length) {
    return completed(st).length ? t("status.confirm") : t("status.secondCard");
  }
  if (verbs.has("give")) return t("status.give", { to: nameOf(st, giveTo(view)) });
  if (verbs.has("draw")) {
    const key = verbs.has("take") && top ? (verbs.has("cambio") ? "status.drawTakeCambio" : "status.drawTake")
      : verbs.has("cambio") ? "status.drawCambio" : "status.draw";
    return t(key, { card: top ? cardText(top) : "" }) + snapHint;
  }
  if (verbs.has("swap")) {
    const held = isCode(view.held) ? cardText(view.held) : "?";
    return view.held_from_pile
      ? t("status.swapTaken", { card: held })
      : t("status.swapOrDiscard", { card: held });
  }
  if (verbs.has("discard")) return t("status.discard");
  if (verbs.has("peek")) {
    const own = slotActions(st).every((a) => a.targets[0].startsWith(`${st.seat}.`));
    return own ? t("status.peekOwn") : t("status.peekOther");
  }
  if (verbs.has("look")) return t("status.look");
  if (verbs.has("switch") && verbs.has("keep")) return t("status.switchOrKeep");
  if (verbs.has("switch")) return t("status.switch");
  if (verbs.has("pass")) return t("status.snapOrPass");
  return t("status.yourMove");
}
