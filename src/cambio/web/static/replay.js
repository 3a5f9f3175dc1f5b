// The replay viewer (/r/{id}?game=k): step through a finished game's round.
//
// The frames come from the engine, never from rules played here: the server replays the
// stored round and sends its view after each step (GET /api/tables/{id}/frames: every card
// once the game is over, else only what the asking seat saw), and the solo page's engine
// (Pyodide) hands over the same frames for its game. The viewer only draws them.
import { ApiError, byId, clear, errorText, h } from "./common.js";
import { t, tNodes } from "./i18n.js";
import { cardEl, cardSpan, cardText, isCode } from "./cardface.js";
import { renderBoardStatic } from "./board.js";
import { normalize } from "./board/model.js";
import { renderGenericFrame } from "./generic.js";
import { ReviewPanel } from "./review/panel.js";

/**
 * A frame as the server (or the solo engine) sends it: the engine's view after the step and
 * the step's event, both the game's own JSON.
 * @typedef {{ view: any, event: any }} RawFrame
 */
/** What a frame says in words: text, with cards drawn in it. @typedef {string | (string | Node)[]} FrameText */
/**
 * A card frame drawn: grids, pile, who called, the cards the step touched, the held card,
 * and at the end the scores.
 * @typedef {{ grids: (string | null)[][], pile: string[], caller: number | null, highlight: string[],
 *   held: { seat: number, code: string } | null, scores: number[] | null, winners: number[] | null }} CardFrameState
 */
/** A frame in the viewer's words (each game adds what its drawing reads). @typedef {{ text: FrameText } & Record<string, any>} ViewerFrame */
/** @typedef {(box: HTMLElement, names: string[], frame: any) => void} FrameRenderer */

const app = byId("app");
const titleEl = byId("title");
const parts = location.pathname.split("/").filter(Boolean);
const params = new URLSearchParams(location.search);
const tableId = decodeURIComponent(parts[1] || params.get("id") || "");
/** The solo page's last game's frames (static/offline/replay.html?local=1): no server to ask. */
const LOCAL_FRAMES = "cambio:solo-frames";
const local = params.has("local");

// ---------------------------------------------------------------------- cards
/** @param {{ players?: unknown[] }} header */
function playerNames(header) {
  return (header.players || []).map((/** @type {any} */ p, /** @type {number} */ i) => (typeof p === "object" && p && p.name)
    ? p.name : typeof p === "string" ? p : t("common.seat", { no: i + 1 }));
}

/**
 * A card frame in the viewer's words: the engine's view after the step (GET
 * /api/tables/{id}/frames: cards face up as far as the viewer may see them) and what the
 * step's event says. Nothing here plays a rule: the grids, the pile and the held card are
 * the engine's.
 * @param {RawFrame} frame @param {RawFrame | undefined} prev @param {string[]} names
 */
function cardFrame(frame, prev, names) {
  const view = frame.view;
  const ev = frame.event;
  /** @type {CardFrameState} */
  const s = {
    grids: view.grids, pile: view.discard || [], caller: view.caller, highlight: [],
    held: view.held ? { seat: view.turn, code: view.held } : null, scores: null, winners: null,
  };
  /** @type {FrameText} */
  let text;
  if (!ev) {
    text = t("log.deal");
  } else if (ev.end) {
    const end = ev.end;
    s.scores = end.scores || null;
    s.winners = end.winners || null;
    s.held = null;
    const w = (end.winners || []).map((/** @type {number} */ i) => names[i] || t("common.seat", { no: i + 1 })).join(t("common.and"));
    text = t(end.reason === "cambio" ? "replay.endCambio" : "replay.endDeck", { names: w, count: (end.winners || []).length });
  } else {
    const who = names[ev.seat] || t("common.seat", { no: ev.seat + 1 });
    const [verb, a, b] = ev.action.split(" ");
    const slotName = (/** @type {string} */ addr) => { const [q, i] = addr.split(".").map(Number); return t("slot.someones", { name: names[q] || t("common.seat", { no: q + 1 }), n: i + 1 }); };
    const before = prev ? prev.view : view;
    const topBefore = (before.discard || [])[(before.discard || []).length - 1];
    const top = s.pile[s.pile.length - 1];
    switch (verb) {
      case "draw": text = tNodes("replay.draw", { who, card: cardSpan(ev.card || view.held || "?") }); break;
      case "take": text = tNodes("log.take", { who, card: cardSpan(ev.card || topBefore || "?") }); break;
      case "swap":
        s.highlight = [`${ev.seat}.${a}`];
        text = tNodes("log.swap", { who, slot: t("slot.theirs", { n: Number(a) + 1 }), card: cardSpan(ev.discarded || top) });
        break;
      case "discard": text = tNodes("log.discard", { who, card: cardSpan(ev.discarded || top) }); break;
      case "peek":
        s.highlight = [a];
        text = [t("log.peek", { who, slot: slotName(a) }), " ", cardSpan(ev.card || cardAt(s, a))];
        break;
      case "look": s.highlight = [a, b]; text = [t("log.look", { who, a: slotName(a), b: slotName(b) })]; break;
      case "switch": s.highlight = [a, b]; text = t("log.switch", { who, a: slotName(a), b: slotName(b) }); break;
      case "keep": text = t("log.keep", { who }); break;
      case "skip": text = t("log.skip", { who }); break;
      case "pass": text = t("log.pass", { who }); break;
      case "cambio": text = t("log.cambio", { who }); break;
      case "snap": {
        const card = ev.card || cardAt({ grids: before.grids }, a);
        s.highlight = [a];
        text = [...tNodes("log.snap", { who, slot: slotName(a), card: cardSpan(card) }), ` — ${ev.right ? t("log.snapRight") : t("log.snapWrong")}`];
        break;
      }
      case "give": text = t("log.give", { who, slot: t("slot.theirs", { n: Number(a) + 1 }) }); break;
      default: text = `${who}: ${ev.action}`;
    }
    if (ev.reshuffled) text = [...(Array.isArray(text) ? text : [text]), ` · ${t("log.reshuffled")}`];
  }
  return { st: s, text, seat: ev ? ev.seat ?? null : null };
}

/** @param {{ grids: (string | null)[][] }} s @param {string} addr @returns {string | null} */
function cardAt(s, addr) {
  const [q, i] = addr.split(".").map(Number);
  return s.grids[q] ? s.grids[q][i] : "?";
}

/** @param {HTMLElement} box @param {string[]} names @param {{ st: CardFrameState, seat: number | null }} frame */
function renderCardFrame(box, names, frame) {
  const s = frame.st;
  clear(box);
  const seats = h("div.replay-seats.opponents");
  s.grids.forEach((grid, q) => {
    const hl = new Set(s.highlight);
    const cells = grid.map((code, i) => {
      const addr = `${q}.${i}`;
      const node = cardEl(code === null ? "empty" : isCode(code) ? code : "?", { label: t("slot.someones", { name: names[q], n: i + 1 }) });
      node.dataset.addr = addr;
      if (hl.has(addr)) node.classList.add("target");
      return node;
    });
    const win = (s.winners || []).includes(q);
    seats.append(h("section.seat", { class: frame.seat === q ? "on-turn" : "", dataset: { seat: q } },
      h("header.seat-head", null, h("span.seat-name", null, names[q] || t("common.seat", { no: q + 1 })),
        s.caller === q ? h("span.tag.called", null, "Cambio") : null,
        s.scores ? h("span.tag.score", { class: win ? "win" : "" }, t(win ? "view.pointsWinner" : "view.points", { count: s.scores[q] })) : null),
      h("div.grid", { style: `--cols:${grid.length > 4 ? Math.min(4, Math.ceil(grid.length / 2)) : 2}` }, cells)));
  });
  const top = s.pile.length ? s.pile[s.pile.length - 1] : null;
  const center = h("div.center", null,
    h("div.pile-box", null, h("span.label", null, `${t("view.pile")} · ${s.pile.length}`), cardEl(top || "empty", { label: t("view.pileLabel") })),
    s.held ? h("div.held-box", null, h("span.label", null, t("replay.holds", { name: names[s.held.seat] || t("results.player") })),
      (() => { const c = cardEl(isCode(s.held.code) ? s.held.code : "?", { label: t("view.heldCard") }); c.classList.add("held"); return c; })()) : null);
  box.append(h("div.cards-game.replay-table", null, seats, center));
}

// ---------------------------------------------------------------------- the viewer
/** Each game's frames in the viewer's words: {st or b, text, seat, ...} (generic: the view). */
/** @type {Record<string, (frames: RawFrame[], names: string[]) => ViewerFrame[]>} */
const FRAMES = {
  cards: (frames, names) => frames.map((f, i) => cardFrame(f, frames[i - 1], names)),
  board: (frames, names) => frames.map((f) => boardFrame(f, names)),
};
/** @type {Record<string, FrameRenderer>} */
const RENDER = { cards: renderCardFrame, board: renderBoardStatic };

// ---------------------------------------------------------------------- dice
/** @param {RawFrame} frame @param {string[]} names */
function boardFrame(frame, names) {
  const b = normalize(frame.view);
  const ev = frame.event;
  let text = t("replay.startPosition");
  if (ev && ev.end) {
    const w = ev.end.winners || [];
    text = w.length ? t("replay.diceWin", { count: w.length, names: w.map((/** @type {number} */ s) => names[s]).join(t("common.and")), why: ev.end.termination })
      : t("dice.draw", { why: String(ev.end.termination).replace(/_/g, " ") });
  } else if (ev) {
    const who = names[ev.seat] || t("common.seat", { no: ev.seat + 1 });
    text = ev.action === "pass" ? `${t("log.pass", { who })}.`
      : /^[a-h][1-8][<>^v]$/.test(ev.action) ? `${t("dice.logPush", { who, push: ev.action })}.` : `${who}: ${ev.action}.`;
  }
  return { b, text, seat: ev ? ev.seat ?? null : null, last: frame.view.last, win: (frame.view.lines || []).flatMap((/** @type {{ cells: number[] }} */ l) => l.cells), winners: frame.view.winners };
}

// ---------------------------------------------------------------------- the viewer
/** @param {{ game: string, header: { players?: unknown[], rules?: { preset?: string } }, rounds: number,
 *   round: number, frames: RawFrame[] }} replay */
function viewer(replay) {
  const game = replay.game;
  const names = playerNames(replay.header);
  const rounds = replay.rounds;
  const roundNo = replay.round;
  const frames = (FRAMES[game] || ((/** @type {RawFrame[]} */ fs) => fs.map((f) => ({ view: f.view, event: f.event,
    text: f.event ? (f.event.end ? t("replay.end") : `${names[f.event.seat] || t("common.seat", { no: f.event.seat + 1 })}: ${f.event.action}`) : t("replay.start") }))))(replay.frames, names);
  const render = RENDER[game] || renderGenericFrame;
  let step = 0;
  /** @type {ReturnType<typeof setInterval> | null} */
  let playing = null;
  const review = reviewPanel(replay, names, frames.length - 1, (/** @type {number} */ k) => go(k));

  // A card match has several rounds, each its own record: the picker loads another one.
  const picker = rounds > 1 ? h("label.field.inline", { for: "round-pick" },
    h("span", null, t("results.round")),
    h("select", {
      id: "round-pick",
      onchange: (/** @type {import("./common.js").SelectChange} */ e) => {
        const q = new URLSearchParams(location.search);
        q.set("round", e.target.value);
        location.search = q.toString();
      },
    }, Array.from({ length: rounds }, (_, i) => i + 1).map((r) => h("option", {
      value: r, selected: r === roundNo,
    }, t("view.roundOf", { round: r, rounds }))))) : null;
  const board = h("div.replay-board");
  const eventText = h("p.replay-event", { id: "replay-event", "aria-live": "polite" });
  const counter = h("span.replay-step", { id: "replay-step" });
  const slider = /** @type {HTMLInputElement} */ (h("input", {
    type: "range", min: 0, max: 0, value: 0, id: "replay-slider", "aria-label": t("replay.step"),
    oninput: (/** @type {import("./common.js").InputChange} */ e) => go(Number(e.target.value)),
  }));
  /** @param {string} id @param {string} text @param {string} label @param {() => void} fn */
  const btn = (id, text, label, fn) => h("button", { type: "button", id, "aria-label": label, onclick: fn }, text);
  const playBtn = btn("replay-play", `▶ ${t("replay.play")}`, t("replay.play"), () => togglePlay());
  const controls = h("div.replay-controls", null,
    btn("replay-first", "|◀", t("replay.first"), () => go(0)),
    btn("replay-prev", "◀", t("replay.prev"), () => go(step - 1)),
    counter,
    btn("replay-next", "▶", t("replay.next"), () => go(step + 1)),
    btn("replay-last", "▶|", t("replay.last"), () => go(frames.length - 1)),
    playBtn, slider);

  /** @param {number} k */
  function go(k) {
    step = Math.max(0, Math.min(frames.length - 1, k));
    const frame = frames[step];
    render(board, names, frame);
    if (review) review.step(step, board);
    clear(eventText).append(...(Array.isArray(frame.text) ? frame.text : [frame.text]));
    counter.textContent = `${step} / ${frames.length - 1}`;
    slider.value = String(step);
    app.dataset.step = String(step);
    if (step >= frames.length - 1 && playing) togglePlay();
  }

  function togglePlay() {
    if (playing) {
      clearInterval(playing);
      playing = null;
      playBtn.textContent = `▶ ${t("replay.play")}`;
    } else {
      if (step >= frames.length - 1) go(0);
      playing = setInterval(() => go(step + 1), 900);
      playBtn.textContent = `❚❚ ${t("replay.pause")}`;
    }
  }

  document.addEventListener("keydown", (e) => {
    if (e.target instanceof HTMLInputElement && e.target.type !== "range") return;
    if (e.key === "ArrowRight") { go(step + 1); e.preventDefault(); }
    if (e.key === "ArrowLeft") { go(step - 1); e.preventDefault(); }
    if (e.key === "Home") go(0);
    if (e.key === "End") go(frames.length - 1);
  });

  const header = replay.header;
  const kind = game === "board" ? t("lobby.diceGame")
    : game === "cards" ? `${t("lobby.cardGame")} · ${header.rules ? t(`preset.${header.rules.preset}`) : ""}` : game;
  app.append(h("div.replay", null,
    h("div.topline", null, h("div.status", null, kind),
      h("div.topline-right", null, picker,
        local
          ? h("a.button.ghost", { href: "../../" }, t("replay.backToCambio"))
          : h("a.button.ghost", { href: `/t/${encodeURIComponent(tableId)}` }, t("replay.backToTable")))),
    h("div.replay-main", { class: review ? "with-review" : "" },
      h("div.replay-play", null, eventText, review ? review.now : null, board, controls),
      review ? review.node : null)));
  go(0);
  if (review) review.load();
}

/**
 * The review panel of a finished game of the card or the dice game, for the seats the
 * server shows to this visitor: the one the link names (their own, from the table, the
 * profile or the daily deal) and the bots'. None for the solo page's games.
 * @param {{ game: string, header: { players?: unknown[] }, round: number }} replay
 * @param {string[]} names @param {number} lastStep @param {(step: number) => void} go
 */
function reviewPanel(replay, names, lastStep, go) {
  if (local || !["cards", "board"].includes(replay.game)) return null;
  const asked = params.get("seat");
  /** @type {number[]} */
  const seats = [];
  if (asked !== null && /^\d+$/.test(asked) && Number(asked) < names.length) seats.push(Number(asked));
  (replay.header.players || []).forEach((/** @type {unknown} */ p, /** @type {number} */ i) => {
    if (p && typeof p === "object" && "bot" in p && p.bot && !seats.includes(i)) seats.push(i);
  });
  if (!seats.length) return null;
  return new ReviewPanel({
    tableId, game: params.get("game") ? Number(params.get("game")) : null, round: replay.round, seats, names, lastStep, go,
  });
}

async function main() {
  if (local) {
    let replay = null;
    try { replay = JSON.parse(localStorage.getItem(LOCAL_FRAMES) || "null"); } catch { /* private mode */ }
    titleEl.textContent = `${t("page.replayTitle")} · ${t("replay.soloGame")}`;
    if (replay && replay.frames && replay.frames.length) viewer(replay);
    else app.append(h("section.panel", { id: "replay-missing" }, h("h2", null, t("replay.noSolo"))));
    return;
  }
  if (!tableId) {
    app.append(h("section.panel", null, h("h2", null, t("replay.noTable"))));
    return;
  }
  titleEl.textContent = `${t("page.replayTitle")} · ${tableId}`;
  const q = new URLSearchParams();
  for (const key of ["game", "round"]) {
    const value = params.get(key);
    if (value) q.set(key, value);
  }
  try {
    const qs = q.toString();
    const res = await fetch(`/api/tables/${encodeURIComponent(tableId)}/frames${qs ? `?${qs}` : ""}`);
    if (!res.ok) {
      /** @type {{ code: string, message: string, key?: string, params?: Record<string, unknown> }} */
      let body = { code: String(res.status), message: res.statusText };
      try { body = (await res.json()).error; } catch { /* not JSON */ }
      throw new ApiError(res.status, body.code, body.message, body.key, body.params);
    }
    const replay = await res.json();
    if (!replay.frames.length) throw new Error(t("replay.empty"));
    viewer(replay);
  } catch (e) {
    const err = /** @type {Error & { status?: number }} */ (e);
    // Said once, in the panel; and a table that does not exist has no page to go back to.
    if (err.status === 404) {
      app.append(h("section.panel", { id: "replay-missing" }, h("h2", null, t("replay.noSuch")),
        h("p.muted", null, t("replay.noSuchHelp", { table: tableId })),
        h("a.button.primary", { href: "/" }, t("common.backToLobby"))));
      return;
    }
    const msg = err.status === 403
      ? t("replay.notYet")
      : err instanceof ApiError ? errorText(err) : err.message || String(err);
    app.append(h("section.panel", { id: "replay-missing" }, h("h2", null, t("replay.noReplay")), h("p.muted", null, msg),
      h("a.button.primary", { href: `/t/${encodeURIComponent(tableId)}` }, t("replay.backToTable"))));
  }
}

export { cardText };
main();
