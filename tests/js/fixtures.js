// Views and table summaries as the server sends them, for the card table's unit tests.
// Seat 0 is Ann (this page), seat 1 Bo (a bot); grids of four, as dealt.

/** @typedef {import("../../src/cambio/web/static/messages.js").CardView} CardView */

/** A two-player table's summary. */
export function summary(extra = {}) {
  return {
    id: "t", game: "cards", players: 2, status: "playing", host: 0, rounds: 1, round: 1,
    seats: [{ seat: 0, kind: "human", name: "Ann", connected: true },
      { seat: 1, kind: "bot", name: "Bo", connected: true }],
    ...extra,
  };
}

/**
 * Seat 0's view: its bottom two cards seen at the deal, the 5♠ on the pile.
 * @param {Partial<CardView>} [extra] @returns {CardView}
 */
export function view(extra = {}) {
  return {
    game: "cards", players: 2, dealer: 1, phase: "turn_start", turn: 0, actor: 0,
    grids: [["?", "?", "3D", "4C"], ["?", "?", "?", "?"]], deck: 40, discard: ["5S"],
    held: null, legal: ["draw", "take", "cambio"], caller: null, ...extra,
  };
}
