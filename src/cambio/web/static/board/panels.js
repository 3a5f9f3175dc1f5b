// The dice table's panels round the board: the players, the setup, the result and the log.
// View functions of a normalized board (model.js) and an environment (names, hooks): the
// table (board.js) only morphs what they return into the page, so they are unit-tested in
// node like the card table's views.
import { h, seatName } from "../common.js";
import { t } from "../i18n.js";
import { cellName, endWhy, pushWords } from "./model.js";
import { SEAT_COLOURS, symbolSvg } from "./view.js";
import { replayPath } from "../review/model.js";

/** @typedef {import("./model.js").Board} Board */
/** @typedef {(seat: number) => string} Namer  a seat's name, "You" for this page's */
/** @typedef {{ seat?: number | null, move?: string, action?: string, setup?: string,
 *   end?: { winners?: number[], termination?: string } | null }} BoardEvent */

/**
 * The players' bar: symbol, name, dice on the board, the winner's tag.
 * @param {Board} b @param {{ seat: number | null, summary: any, name: Namer }} env
 */
export function playersBar(b, env) {
  const names = Array.from({ length: b.players }, (_, s) => env.name(s));
  return h("div.board-players", { dataset: { key: "players" } }, names.map((nm, s) => h("div.board-player", {
    class: b.turn === s && !b.over ? "on-turn" : "", dataset: { seat: s },
  },
  h("span.sym-key", null, symbolSvg(b.symbols[s], SEAT_COLOURS[s], SEAT_COLOURS[s])),
  h("strong", null, s === env.seat ? t("results.you", { name: seatName(env.summary, s) }) : nm),
  h("span.muted-on-felt", null, t("dice.dice", { count: b.owners.filter((o) => o === s).length })),
  (b.winners || []).includes(s) ? h("span.tag.score.win", null, t("dice.winnerTag")) : null)));
}

/** The setup in words: targets, counts, whose dice are being adjusted. @param {Board} b @param {Namer} name */
export function setupPanel(b, name) {
  const s = b.setup;
  const targets = Array.isArray(s.targets) ? s.targets : [];
  const adjusting = s.adjusting ?? null;
  const counts = Array.from({ length: b.players }, (_, p) => b.owners.filter((o) => o === p).length);
  return h("section.panel.setup-info", { id: "setup-info", dataset: { key: "setup" } },
    h("h2", null, t("lobby.setup")),
    h("p", null, t("dice.setupHelp")),
    h("ul.setup-counts", null, targets.map((/** @type {number} */ target, /** @type {number} */ p) => h("li", { class: p === adjusting ? "now" : "" },
      t("dice.setupCount", { name: name(p), count: counts[p], target }),
      p === adjusting ? ` — ${adjustedBy(s.adding, name((p + 1) % b.players))}` : ""))));
}

/** "you", not "You": the reader's own seat reads differently inside a sentence. @param {string} who */
const isYou = (who) => who === t("common.you");

/** Whose turn it is to adjust a seat's dice in the setup. @param {boolean} adding @param {string} by */
function adjustedBy(adding, by) {
  const key = adding ? "dice.toppedUp" : "dice.reduced";
  return isYou(by) ? t(`${key}ByYou`) : t(key, { name: by });
}

/** How the game ended, in words: who made which line (the engine's). @param {Board} b @param {Namer} name */
export function resultWords(b, name) {
  const winners = b.winners || [];
  if (b.termination === "line" && winners.length) {
    return winners.map((w) => {
      const cells = (b.lines.find((l) => l.seat === w) || { cells: [] }).cells;
      const line = cells.length ? `${cellName(cells[0], b.n)}–${cellName(cells[cells.length - 1], b.n)}` : "";
      return t("dice.madeLine", { name: name(w), k: b.k, line: line ? ` (${line})` : "" });
    }).join(" ");
  }
  return t("dice.endedBy", { why: endWhy(b.termination) });
}

/**
 * The result: the status line's words, the line made, Play again (the host) and the replay.
 * @param {Board} b
 * @param {{ status: string, name: Namer, isHost: boolean, tableId: string,
 *   gameNo?: number, seat?: number | null, onAgain: () => void }} env
 */
export function resultsPanel(b, env) {
  const box = h("section.results", { id: "results", dataset: { key: "results" } },
    h("h2", null, env.status),
    b.termination ? h("p.muted", { id: "result-words" }, resultWords(b, env.name)) : null);
  const actions = h("div.result-actions");
  if (env.isHost) actions.append(h("button.primary.big", { type: "button", id: "again", onclick: () => env.onAgain() }, t("results.again")));
  // The replay opens on this seat's review.
  actions.append(h("a.button", { href: replayPath(env.tableId, env.gameNo, env.seat), id: "replay-link" }, t("results.replay")));
  box.append(actions);
  return box;
}

/**
 * One move of the log in words; a push keeps its notation beside them.
 * @param {BoardEvent} ev @param {number} players @param {Namer} name
 * @returns {(string | HTMLElement)[]}
 */
export function eventWords(ev, players, name) {
  const who = ev.seat !== undefined && ev.seat !== null ? name(ev.seat) : t("dice.chance");
  const m = ev.move || ev.action || ev.setup || "";
  const [verb, cell] = m.split(" ");
  /** @type {string | (string | HTMLElement)[]} */
  let text;
  if (m === "pass") text = t("dice.logPass", { who });
  else if (/^[a-h][1-8][<>^v]$/.test(m)) text = [`${t("dice.logPush", { who, push: pushWords(m) })} `, h("small.notation", null, `(${m})`)];
  else if ((verb === "neutral" || verb === "own") && ev.seat !== undefined && ev.seat !== null) {
    // The seat choosing adjusts the dice of the seat before it.
    const other = name((ev.seat + players - 1) % players);
    text = verb === "neutral"
      ? t(isYou(other) ? "dice.logNeutralYours" : "dice.logNeutral", { who, other, cell })
      : t(isYou(other) ? "dice.logGiveYou" : "dice.logGive", { who, other, cell });
  } else text = `${who}: ${m}`;
  const parts = Array.isArray(text) ? text : [text];
  const end = ev.end;
  if (end && typeof end === "object") {
    const w = (end.winners || []).map((s) => name(s));
    const won = w.length === 1 && isYou(w[0]) ? t("dice.logYouWin")
      : t("dice.logWinners", { count: w.length, names: w.join(t("common.and")) });
    parts.push(w.length ? ` — ${won}`
      : ` — ${t("dice.logDraw", { why: endWhy(end.termination) })}`);
  }
  return parts;
}

/**
 * The moves, newest first (the last 80), in a disclosure the player opens or closes.
 * @param {BoardEvent[]} log @param {number} players @param {Namer} name
 * @param {{ open: boolean, onToggle: (open: boolean) => void }} env
 */
export function logPanel(log, players, name, env) {
  const items = log.slice(-80).reverse().map((ev) => h("li", null, h("span", null, ...eventWords(ev, players, name))));
  return h("details.log", {
    open: env.open, dataset: { key: "log" },
    ontoggle: (/** @type {Event} */ e) => env.onToggle(/** @type {HTMLDetailsElement} */ (e.currentTarget).open),
  },
    h("summary", null, t("dice.moves", { count: log.length })),
    h("ol.log-list", { reversed: true }, items));
}
