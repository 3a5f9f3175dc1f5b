// The table's WebSocket messages as the card table reads and sends them: the fields the
// protocol defines come from the types generated from the server's message definitions
// (protocol_types.js, scripts/gen_protocol.py), so renaming or retyping one there fails the
// type check here; the card game's view and events, which the protocol leaves as JSON
// objects, are typed below.

/** @typedef {import('./protocol_types.js').State} ProtocolState */
/** @typedef {import('./protocol_types.js').Update} ProtocolUpdate */
/** @typedef {import('./protocol_types.js').Hint} ProtocolHint */
/** @typedef {import('./protocol_types.js').Error} ProtocolError */
/** @typedef {import('./protocol_types.js').Act} ProtocolAct */

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
 * The whole view (a connect, a resync, a new deal).
 * @typedef {Pick<ProtocolState, "version"> & Partial<Pick<ProtocolState, "type" | "game_no" | "round">>
 *   & { view: CardView, log?: CardEvent[] }} StateMessage
 */

/**
 * One accepted move and the view after it.
 * @typedef {Pick<ProtocolUpdate, "version"> & Partial<Pick<ProtocolUpdate, "type" | "game_no" | "round">>
 *   & { view: CardView, event?: CardEvent | null }} UpdateMessage
 */

/**
 * The hard bot's suggestion (assist mode).
 * @typedef {Pick<ProtocolHint, "action"> & Partial<Pick<ProtocolHint, "score" | "win_share" | "text" | "match">>} HintMessage
 */

/**
 * A refused message.
 * @typedef {Pick<ProtocolError, "code"> & Partial<Pick<ProtocolError, "message" | "ref">>} ErrorMessage
 */

/**
 * What the client adds to an `act` message besides the action, the version and the ref:
 * for a snap, how long after the pile's top card was shown it was pressed (milliseconds), so
 * the server can judge a race fairly between a near and a far player.
 * @typedef {{ reaction_ms?: NonNullable<ProtocolAct["reaction_ms"]> }} ActExtra
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
 * @property {boolean} [rated]  a result that changes ratings (no hints there)
 * @property {string} [table_name]
 * @property {GameResult | null} [result]  this game's, once it has one
 * @property {GameResult[]} [history]  the match's earlier games (the last few)
 * @property {number[]} [wins]  every seat's games won
 * @property {number | null} [next_round]  seconds until the next round is dealt
 * @property {string} [created]
 * @property {string | null} [halted]
 * @property {number | null} [clock]
 * @property {boolean} [spectator_chat]
 * @property {boolean} [strangers]  Play now seated its players (free chat needs an account)
 * @property {boolean} [daily]  the day's deal
 * @property {boolean} [hints_off]  a result compared with other players' (rated, the daily deal): no hints
 * @property {boolean} [correspondence]  a per-move time of an hour or more
 * @property {"bot" | "forfeit"} [on_timeout]  what a missed correspondence deadline does
 */

/**
 * A game's result in a summary (the engine's: winners, and per game its own fields).
 * @typedef {{ winners: number[] | null, scores?: number[], [field: string]: unknown }} GameResult
 */

export {};
