// The table's WebSocket messages that the card table reads and sends, as JSDoc types
// (docs/protocol.md is the contract). They stand in one module so that they can later be
// pointed at the types generated from the server's own message definitions.

/**
 * One seat's view of a card round, as the server's observer makes it: a card code ("KD",
 * "TH", "XB") where the seat may see the card, "?" where it may not, null for an empty slot.
 * @typedef {object} CardView
 * @property {string} [game]
 * @property {number} [players]
 * @property {number} [dealer]
 * @property {string} phase
 * @property {number | null} [turn]
 * @property {number | null} [actor]
 * @property {(string | null)[][]} grids
 * @property {number} deck
 * @property {string[]} discard
 * @property {string | null} [held]
 * @property {boolean} [held_from_pile]
 * @property {string[]} legal
 * @property {number | null} [caller]
 * @property {number} [final_turns_left]
 * @property {string | null} [power]
 * @property {{ slot: string } | null} [last_snap]
 * @property {string[]} [looked]
 * @property {number[] | null} [scores]
 * @property {number[] | null} [winners]
 * @property {string | null} [end_reason]
 * @property {TableRules} [rules]
 */

/** @typedef {{ preset?: string, overrides?: Record<string, unknown> }} TableRules */

/**
 * A move as one seat may see it (an `update`'s `event`, a line of a `state`'s `log`).
 * @typedef {object} CardEvent
 * @property {number} [seat]
 * @property {string} [action]
 * @property {string} [card]
 * @property {string | string[]} [discarded]
 * @property {string[]} [revealed]
 * @property {string[]} [cards]
 * @property {boolean} [right]
 * @property {boolean} [reshuffled]
 * @property {boolean} [deal]
 * @property {object} [end]
 * @property {boolean} [bot]   set by the page: a move of our seat it did not send
 */

/**
 * @typedef {object} StateMessage   the whole view (a connect, a resync, a new deal)
 * @property {number} version
 * @property {CardView} view
 * @property {CardEvent[]} [log]
 */

/**
 * @typedef {object} UpdateMessage  one accepted move and the view after it
 * @property {number} version
 * @property {CardView} view
 * @property {CardEvent | null} [event]
 */

/**
 * @typedef {object} HintMessage    the hard bot's suggestion (assist mode)
 * @property {string} action
 * @property {number} [score]
 * @property {number} [win_share]
 * @property {string} [text]
 */

/**
 * @typedef {object} ErrorMessage   a refused message
 * @property {string} code
 * @property {string} [message]
 * @property {string | number | null} [ref]
 */

/**
 * What the client adds to an `act` message besides the action, the version and the ref:
 * for a snap, how long after the pile's top card was shown it was pressed (milliseconds), so
 * the server can judge a race fairly between a near and a far player.
 * @typedef {{ reaction_ms?: number }} ActExtra
 */

/**
 * @typedef {object} SeatSummary
 * @property {number} seat
 * @property {string} [kind]   "human", "bot" or "empty"
 * @property {string} [name]
 * @property {string} [bot]
 * @property {boolean} [connected]
 * @property {boolean} [away]
 */

/**
 * The table's summary (the lobby's view of a table: seats, status, match totals).
 * @typedef {object} TableSummary
 * @property {string} [id]
 * @property {string} [game]
 * @property {number} [players]
 * @property {string} [status]
 * @property {SeatSummary[]} [seats]
 * @property {number} [host]
 * @property {number} [rounds]
 * @property {number} [round]
 * @property {number} [target]
 * @property {number[]} [totals]
 * @property {number} [game_no]
 * @property {boolean} [tutorial]
 * @property {string} [table_name]
 */

export {};
