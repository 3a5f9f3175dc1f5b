// @ts-check
// The first-game tutorials (a newcomer learns by playing), what both games share: starting one from the
// lobby (POST /api/tutorial: a private table against a bot, dealt from a fixed seed by the
// server), whether this page guides (the table says it is a tutorial and the player has not
// skipped it), and the coach line that replaces the status line while it does.
//
// The guidance reads only the seat's normal view: the server never tells a tutorial table's
// client more than any other's. The game's own module (tutorial_cards.js, tutorial_dice.js)
// says what to do next and what it points at (the marks the table outlines).
import { api, h, setToken } from "./common.js";
import { t } from "./i18n.js";

const skipKey = (/** @type {string} */ tableId) => `cambio:tutorial-skip:${tableId}`;

/** Start a tutorial of `game` ("cards" or "board") for `name`; resolves to the table id.
 * @param {string} game @param {string} name @returns {Promise<string>} */
export async function startTutorial(game, name) {
  const res = await api("POST", "/api/tutorial", { game, name });
  setToken(res.table, res.token);
  return res.table;
}

/** Whether the table page guides: a tutorial table, the player seated, not skipped.
 * @param {{ tutorial?: boolean } | null} summary @param {number | null | undefined} seat @param {string} tableId */
export function guiding(summary, seat, tableId) {
  if (!summary || !summary.tutorial || seat === null || seat === undefined) return false;
  try { return localStorage.getItem(skipKey(tableId)) !== "1"; } catch { return true; }
}

/** @param {string} tableId */
export function skipTutorial(tableId) {
  try { localStorage.setItem(skipKey(tableId), "1"); } catch { /* private mode */ }
}

/** The coach line: the tip in the status line's place, with × to skip the tutorial.
 * @param {string} text @param {() => void} onSkip */
export function coachLine(text, onSkip) {
  return h("div.status.hinting.coaching", { id: "status", "aria-live": "polite" },
    h("span", { id: "coach-text" }, text),
    h("button.ghost.hint-close", {
      type: "button", id: "coach-skip", dataset: { key: "coach-skip" }, "aria-label": t("tutorial.skip"),
      title: t("tutorial.skip"), onclick: onSkip,
    }, "×"));
}
