// The replay viewer (/r/{id}?game=k): step through a finished game's round.
//
// The frames come from the engine, never from rules played here: the server replays the
// stored round and sends its view after each step (GET /api/tables/{id}/frames: every card
// once the game is over, else only what the asking seat saw), and the solo page's engine
// (Pyodide) hands over the same frames for its game. The viewer only draws them.
import { clear, h } from "./common.js";
import { cardEl, cardSpan, cardText, isCode } from "./cardface.js";
import { renderBoardStatic } from "./board.js";
import { normalize } from "./board/model.js";
import { renderGenericFrame } from "./generic.js";
import { ReviewPanel } from "./review/panel.js";

const app = document.getElementById("app");
const titleEl = document.getElementById("title");
const parts = location.pathname.split("/").filter(Boolean);
const params = new URLSearchParams(location.search);
const tableId = decodeURIComponent(parts[1] || params.get("id") || "");
/** The solo page's last game's frames (static/offline/replay.html?local=1): no server to ask. */
const LOCAL_FRAMES = "cambio:solo-frames";
const local = params.has("local");

// ---------------------------------------------------------------------- cards
function playerNames(header) {
  return (header.players || []).map((p, i) => (typeof p === "object" && p && p.name)
    ? p.name : typeof p === "string" ? p : `Seat ${i + 1}`);
}

/**
 * A card frame in the viewer's words: the engine's view after the step (GET
 * /api/tables/{id}/frames: cards face up as far as the viewer may see them) and what the
 * step's event says. Nothing here plays a rule: the grids, the pile and the held card are
 * the engine's.
 */
function cardFrame(frame, prev, names) {
  const view = frame.view;
  const ev = frame.event;
  const s = {
    grids: view.grids, pile: view.discard || [], caller: view.caller, highlight: [],
    held: view.held ? { seat: view.turn, code: view.held } : null, scores: null, winners: null,
  };
  let text;
  if (!ev) {
    text = "The deal: everyone peeks at their two bottom cards.";
  } else if (ev.end) {
    const end = ev.end;
    s.scores = end.scores || null;
    s.winners = end.winners || null;
    s.held = null;
    const w = (end.winners || []).map((i) => names[i] || `Seat ${i + 1}`).join(" and ");
    text = `The end (${end.reason === "cambio" ? "Cambio" : "deck exhausted"}): ${w} ${(end.winners || []).length > 1 ? "win" : "wins"}.`;
  } else {
    const who = names[ev.seat] || `Seat ${ev.seat + 1}`;
    const [verb, a, b] = ev.action.split(" ");
    const slotName = (addr) => { const [q, i] = addr.split(".").map(Number); return `${names[q] || `Seat ${q + 1}`}'s card ${i + 1}`; };
    const before = prev ? prev.view : view;
    const topBefore = (before.discard || [])[(before.discard || []).length - 1];
    const top = s.pile[s.pile.length - 1];
    switch (verb) {
      case "draw": text = [`${who} draws `, cardSpan(ev.card || view.held || "?")]; break;
      case "take": text = [`${who} takes `, cardSpan(ev.card || topBefore || "?"), " from the pile"]; break;
      case "swap":
        s.highlight = [`${ev.seat}.${a}`];
        text = [`${who} swaps it into card ${Number(a) + 1}, discarding `, cardSpan(ev.discarded || top)];
        break;
      case "discard": text = [`${who} discards `, cardSpan(ev.discarded || top)]; break;
      case "peek":
        s.highlight = [a];
        text = [`${who} peeks at ${slotName(a)} `, cardSpan(ev.card || cardAt(s, a))];
        break;
      case "look": s.highlight = [a, b]; text = [`${who} looks at ${slotName(a)} and ${slotName(b)}`]; break;
      case "switch": s.highlight = [a, b]; text = `${who} switches ${slotName(a)} and ${slotName(b)}`; break;
      case "keep": text = `${who} keeps the cards where they are`; break;
      case "skip": text = `${who} skips the power`; break;
      case "pass": text = `${who} passes`; break;
      case "cambio": text = `${who} calls Cambio!`; break;
      case "snap": {
        const card = ev.card || cardAt({ grids: before.grids }, a);
        s.highlight = [a];
        text = [`${who} snaps ${slotName(a)}: `, cardSpan(card), ev.right ? " — right!" : " — wrong, penalty card"];
        break;
      }
      case "give": text = `${who} gives card ${Number(a) + 1}`; break;
      default: text = `${who}: ${ev.action}`;
    }
    if (ev.reshuffled) text = [...[].concat(text), " · the pile is shuffled into the deck"];
  }
  return { st: s, text, seat: ev ? ev.seat ?? null : null };
}

function cardAt(s, addr) {
  const [q, i] = addr.split(".").map(Number);
  return s.grids[q] ? s.grids[q][i] : "?";
}

function renderCardFrame(box, names, frame) {
  const s = frame.st;
  clear(box);
  const seats = h("div.replay-seats.opponents");
  s.grids.forEach((grid, q) => {
    const hl = new Set(s.highlight);
    const cells = grid.map((code, i) => {
      const addr = `${q}.${i}`;
      const node = cardEl(code === null ? "empty" : isCode(code) ? code : "?", { label: `${names[q]}'s card ${i + 1}` });
      node.dataset.addr = addr;
      if (hl.has(addr)) node.classList.add("target");
      return node;
    });
    const win = (s.winners || []).includes(q);
    seats.append(h("section.seat", { class: frame.seat === q ? "on-turn" : "", dataset: { seat: q } },
      h("header.seat-head", null, h("span.seat-name", null, names[q] || `Seat ${q + 1}`),
        s.caller === q ? h("span.tag.called", null, "Cambio") : null,
        s.scores ? h("span.tag.score", { class: win ? "win" : "" }, `${s.scores[q]} pts${win ? " · winner" : ""}`) : null),
      h("div.grid", { style: `--cols:${grid.length > 4 ? Math.min(4, Math.ceil(grid.length / 2)) : 2}` }, cells)));
  });
  const top = s.pile.length ? s.pile[s.pile.length - 1] : null;
  const center = h("div.center", null,
    h("div.pile-box", null, h("span.label", null, `Pile · ${s.pile.length}`), cardEl(top || "empty", { label: "Discard pile" })),
    s.held ? h("div.held-box", null, h("span.label", null, `${names[s.held.seat] || "Player"} holds`),
      (() => { const c = cardEl(isCode(s.held.code) ? s.held.code : "?", { label: "Held card" }); c.classList.add("held"); return c; })()) : null);
  box.append(h("div.cards-game.replay-table", null, seats, center));
}

// ---------------------------------------------------------------------- the viewer
/** Each game's frames in the viewer's words: {st or b, text, seat, ...} (generic: the view). */
const FRAMES = {
  cards: (frames, names) => frames.map((f, i) => cardFrame(f, frames[i - 1], names)),
  board: (frames, names) => frames.map((f) => boardFrame(f, names)),
};
const RENDER = { cards: renderCardFrame, board: renderBoardStatic };

// ---------------------------------------------------------------------- dice
function boardFrame(frame, names) {
  const b = normalize(frame.view);
  const ev = frame.event;
  let text = "The start position.";
  if (ev && ev.end) {
    const w = ev.end.winners || [];
    text = w.length ? `${w.map((s) => names[s]).join(" and ")} ${w.length > 1 ? "win" : "wins"} (${ev.end.termination}).`
      : `Draw (${String(ev.end.termination).replace(/_/g, " ")}).`;
  } else if (ev) {
    const who = names[ev.seat] || `Seat ${ev.seat + 1}`;
    text = ev.action === "pass" ? `${who} passes.`
      : /^[a-h][1-8][<>^v]$/.test(ev.action) ? `${who} pushes ${ev.action}.` : `${who}: ${ev.action}.`;
  }
  return { b, text, seat: ev ? ev.seat ?? null : null, last: frame.view.last, win: (frame.view.lines || []).flatMap((l) => l.cells), winners: frame.view.winners };
}

// ---------------------------------------------------------------------- the viewer
/** @param {{game: string, header: object, rounds: number, round: number, frames: object[]}} replay */
function viewer(replay) {
  const game = replay.game;
  const names = playerNames(replay.header);
  const rounds = replay.rounds;
  const roundNo = replay.round;
  const frames = (FRAMES[game] || ((fs) => fs.map((f) => ({ view: f.view, event: f.event,
    text: f.event ? (f.event.end ? "The end." : `${names[f.event.seat] || `Seat ${f.event.seat + 1}`}: ${f.event.action}`) : "The start." }))))(replay.frames, names);
  const render = RENDER[game] || renderGenericFrame;
  let step = 0;
  let playing = null;
  const review = reviewPanel(replay, names, frames.length - 1, (k) => go(k));

  // A card match has several rounds, each its own record: the picker loads another one.
  const picker = rounds > 1 ? h("label.field.inline", { for: "round-pick" },
    h("span", null, "Round"),
    h("select", {
      id: "round-pick",
      onchange: (e) => {
        const q = new URLSearchParams(location.search);
        q.set("round", e.target.value);
        location.search = q.toString();
      },
    }, Array.from({ length: rounds }, (_, i) => i + 1).map((r) => h("option", {
      value: r, selected: r === roundNo,
    }, `Round ${r} of ${rounds}`)))) : null;
  const board = h("div.replay-board");
  const eventText = h("p.replay-event", { id: "replay-event", "aria-live": "polite" });
  const counter = h("span.replay-step", { id: "replay-step" });
  const slider = h("input", {
    type: "range", min: 0, max: 0, value: 0, id: "replay-slider", "aria-label": "Step",
    oninput: (e) => go(Number(e.target.value)),
  });
  const btn = (id, text, label, fn) => h("button", { type: "button", id, "aria-label": label, onclick: fn }, text);
  const playBtn = btn("replay-play", "▶ Play", "Play", () => togglePlay());
  const controls = h("div.replay-controls", null,
    btn("replay-first", "|◀", "First step", () => go(0)),
    btn("replay-prev", "◀", "Previous step", () => go(step - 1)),
    counter,
    btn("replay-next", "▶", "Next step", () => go(step + 1)),
    btn("replay-last", "▶|", "Last step", () => go(frames.length - 1)),
    playBtn, slider);

  function go(k) {
    step = Math.max(0, Math.min(frames.length - 1, k));
    const frame = frames[step];
    render(board, names, frame);
    if (review) review.step(step, board);
    clear(eventText).append(...[].concat(frame.text));
    counter.textContent = `${step} / ${frames.length - 1}`;
    slider.value = String(step);
    app.dataset.step = String(step);
    if (step >= frames.length - 1 && playing) togglePlay();
  }

  function togglePlay() {
    if (playing) {
      clearInterval(playing);
      playing = null;
      playBtn.textContent = "▶ Play";
    } else {
      if (step >= frames.length - 1) go(0);
      playing = setInterval(() => go(step + 1), 900);
      playBtn.textContent = "❚❚ Pause";
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
  const kind = game === "board" ? "Dice board game"
    : game === "cards" ? `Card game · ${header.rules ? header.rules.preset : ""}` : game;
  app.append(h("div.replay", null,
    h("div.topline", null, h("div.status", null, kind),
      h("div.topline-right", null, picker,
        local
          ? h("a.button.ghost", { href: "../../" }, "Back to Cambio")
          : h("a.button.ghost", { href: `/t/${encodeURIComponent(tableId)}` }, "Back to the table"))),
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
 */
function reviewPanel(replay, names, lastStep, go) {
  if (local || !["cards", "board"].includes(replay.game)) return null;
  const asked = params.get("seat");
  const seats = [];
  if (asked !== null && /^\d+$/.test(asked) && Number(asked) < names.length) seats.push(Number(asked));
  (replay.header.players || []).forEach((p, i) => {
    if (p && typeof p === "object" && p.bot && !seats.includes(i)) seats.push(i);
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
    titleEl.textContent = "Replay · solo game";
    if (replay && replay.frames && replay.frames.length) viewer(replay);
    else app.append(h("section.panel", { id: "replay-missing" }, h("h2", null, "No solo game to replay")));
    return;
  }
  if (!tableId) {
    app.append(h("section.panel", null, h("h2", null, "No table given")));
    return;
  }
  titleEl.textContent = `Replay · ${tableId}`;
  const q = new URLSearchParams();
  for (const key of ["game", "round"]) if (params.get(key)) q.set(key, params.get(key));
  try {
    const qs = q.toString();
    const res = await fetch(`/api/tables/${encodeURIComponent(tableId)}/frames${qs ? `?${qs}` : ""}`);
    if (!res.ok) {
      let message = res.statusText;
      try { message = (await res.json()).error.message; } catch { /* not JSON */ }
      throw Object.assign(new Error(message), { status: res.status });
    }
    const replay = await res.json();
    if (!replay.frames.length) throw new Error("The record is empty.");
    viewer(replay);
  } catch (err) {
    // Said once, in the panel; and a table that does not exist has no page to go back to.
    if (err.status === 404) {
      app.append(h("section.panel", { id: "replay-missing" }, h("h2", null, "No such table"),
        h("p.muted", null, `There is no table "${tableId}": the link may be mistyped, or the table has expired.`),
        h("a.button.primary", { href: "/" }, "Back to the lobby")));
      return;
    }
    const msg = err.status === 403
      ? "The record is available once the game is over."
      : err.message || String(err);
    app.append(h("section.panel", { id: "replay-missing" }, h("h2", null, "No replay yet"), h("p.muted", null, msg),
      h("a.button.primary", { href: `/t/${encodeURIComponent(tableId)}` }, "Back to the table")));
  }
}

export { cardText };
main();
