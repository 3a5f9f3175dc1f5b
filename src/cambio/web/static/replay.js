// The replay viewer (/r/{id}?game=k): load a finished game's full record and step through it.
//
// A record is JSON Lines: a header, then events (docs/records.md, docs/records-board.md).
// The viewer rebuilds the table after each event from the record alone: every card of a
// full record is in it (the deal, the draws, the penalties), every die push is in the move.
import { clear, h } from "./common.js";
import { cardEl, cardSpan, cardText, isCode } from "./cardface.js";
import { boardFromRecord, renderBoardStatic } from "./board.js";

const app = document.getElementById("app");
const titleEl = document.getElementById("title");
const parts = location.pathname.split("/").filter(Boolean);
const params = new URLSearchParams(location.search);
const tableId = decodeURIComponent(parts[1] || params.get("id") || "");
/** The solo page's last game (static/offline/replay.html?local=1): no server to ask. */
const LOCAL_RECORD = "cambio:solo-record";
const local = params.has("local");

/** Split NDJSON text into records (a new record starts at each header line). */
export function parseRecords(text) {
  const records = [];
  for (const line of text.split("\n")) {
    if (!line.trim()) continue;
    const obj = JSON.parse(line);
    if (obj.format === "cambio-record") records.push({ header: obj, events: [] });
    else if (records.length) records[records.length - 1].events.push(obj);
  }
  return records;
}

// ---------------------------------------------------------------------- cards
function playerNames(header) {
  return (header.players || []).map((p, i) => (typeof p === "object" && p && p.name)
    ? p.name : typeof p === "string" ? p : `Seat ${i + 1}`);
}

/** The card table after each event: frames[0] is the deal. */
export function cardFrames(record) {
  const header = record.header;
  const names = playerNames(header);
  const n = names.length || 2;
  const maxGrid = header.rules && header.rules.overrides ? header.rules.overrides.max_grid ?? null : null;
  let st = {
    grids: Array.from({ length: n }, () => ["?", "?", "?", "?"]),
    pile: [], held: null, caller: null, highlight: [], give: null, scores: null, winners: null,
    reshuffles: 0,
  };
  const frames = [];
  const clone = (s) => ({ ...s, grids: s.grids.map((g) => [...g]), pile: [...s.pile], highlight: [] });
  let started = false;
  for (const ev of record.events) {
    const s = clone(st);
    let text = "";
    if (ev.deal) {
      s.grids = ev.deal.map((g) => g.map((c) => c));
      text = "The deal: everyone peeks at their two bottom cards.";
      started = true;
    } else if (ev.end) {
      const end = ev.end;
      if (Array.isArray(end.grids)) s.grids = end.grids.map((g) => [...g]);
      s.scores = end.scores || null;
      s.winners = end.winners || null;
      s.held = null;
      const w = (end.winners || []).map((i) => names[i] || `Seat ${i + 1}`).join(" and ");
      text = `The end (${end.reason === "cambio" ? "Cambio" : "deck exhausted"}): ${w} ${(end.winners || []).length > 1 ? "win" : "wins"}.`;
    } else if (typeof ev.action === "string") {
      const who = names[ev.seat] || `Seat ${ev.seat + 1}`;
      const [verb, a, b] = ev.action.split(" ");
      const at = (addr) => addr.split(".").map(Number);
      const slotName = (addr) => { const [q, i] = at(addr); return `${names[q] || `Seat ${q + 1}`}'s card ${i + 1}`; };
      switch (verb) {
        case "draw":
          s.held = { seat: ev.seat, code: ev.card || "?" };
          text = [`${who} draws `, cardSpan(ev.card)];
          break;
        case "take":
          s.held = { seat: ev.seat, code: s.pile.pop() || ev.card || "?" };
          text = [`${who} takes `, cardSpan(s.held.code), " from the pile"];
          break;
        case "swap": {
          const i = Number(a);
          const out = s.grids[ev.seat][i];
          s.grids[ev.seat][i] = s.held ? s.held.code : "?";
          s.pile.push(ev.discarded || out);
          s.held = null;
          s.highlight = [`${ev.seat}.${i}`];
          text = [`${who} swaps it into card ${i + 1}, discarding `, cardSpan(ev.discarded || out)];
          break;
        }
        case "discard":
          s.pile.push(ev.discarded || (s.held && s.held.code) || "?");
          s.held = null;
          text = [`${who} discards `, cardSpan(s.pile[s.pile.length - 1])];
          break;
        case "peek":
          s.highlight = [a];
          text = [`${who} peeks at ${slotName(a)} `, cardSpan(cardAt(s, a))];
          break;
        case "look":
          s.highlight = [a, b];
          text = [`${who} looks at ${slotName(a)} and ${slotName(b)}`];
          break;
        case "switch": {
          const [sa, ia] = at(a);
          const [sb, ib] = at(b);
          const t = s.grids[sa][ia];
          s.grids[sa][ia] = s.grids[sb][ib];
          s.grids[sb][ib] = t;
          s.highlight = [a, b];
          text = `${who} switches ${slotName(a)} and ${slotName(b)}`;
          break;
        }
        case "keep": text = `${who} keeps the cards where they are`; break;
        case "skip": text = `${who} skips the power`; break;
        case "pass": text = `${who} passes`; break;
        case "cambio": s.caller = ev.seat; text = `${who} calls Cambio!`; break;
        case "snap": {
          const [sa, ia] = at(a);
          const card = ev.card || s.grids[sa][ia];
          s.highlight = [a];
          if (ev.right) {
            s.pile.push(card);
            s.grids[sa][ia] = null;
            if (sa !== ev.seat) s.give = a;
            text = [`${who} snaps ${slotName(a)}: `, cardSpan(card), " — right!"];
          } else {
            for (const p of ev.penalty || []) {
              const grid = s.grids[ev.seat];
              const empty = grid.indexOf(null);
              if (maxGrid !== null && grid.length >= maxGrid && empty >= 0) grid[empty] = p;
              else grid.push(p);
            }
            text = [`${who} snaps ${slotName(a)}: `, cardSpan(card), " — wrong, penalty card"];
          }
          break;
        }
        case "give": {
          const i = Number(a);
          if (s.give) {
            const [ts, ti] = at(s.give);
            s.grids[ts][ti] = s.grids[ev.seat][i];
            s.highlight = [s.give];
          }
          s.grids[ev.seat][i] = null;
          s.give = null;
          text = `${who} gives card ${i + 1}`;
          break;
        }
        default: text = `${who}: ${ev.action}`;
      }
      if (ev.reshuffled) {
        const top = s.pile[s.pile.length - 1];
        s.pile = top ? [top] : [];
        text = [...[].concat(text), " · the pile is shuffled into the deck"];
      }
      if (!started) started = true;
    } else {
      continue;
    }
    st = s;
    frames.push({ st: s, text, seat: ev.seat ?? null });
  }
  if (!frames.length) frames.push({ st, text: "No events.", seat: null });
  return { names, frames };
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
function viewer(records, rounds, roundNo) {
  let recIndex = Math.max(0, records.length - 1);
  let frames = null;
  let names = [];
  let step = 0;
  let playing = null;

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

  function load() {
    const rec = records[recIndex];
    if (rec.header.game === "board") {
      const r = boardFromRecord(rec);
      names = r.names;
      frames = r.frames;
    } else {
      const r = cardFrames(rec);
      names = r.names;
      frames = r.frames;
    }
    slider.max = String(frames.length - 1);
    go(0);
  }

  function go(k) {
    step = Math.max(0, Math.min(frames.length - 1, k));
    const frame = frames[step];
    if (records[recIndex].header.game === "board") renderBoardStatic(board, names, frame);
    else renderCardFrame(board, names, frame);
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

  const rec = records[recIndex];
  const kind = rec.header.game === "board" ? "Dice board game" : `Card game · ${rec.header.rules ? rec.header.rules.preset : ""}`;
  app.append(h("div.replay", null,
    h("div.topline", null, h("div.status", null, kind),
      h("div.topline-right", null, picker,
        local
          ? h("a.button.ghost", { href: "../../" }, "Back to Cambio")
          : h("a.button.ghost", { href: `/t/${encodeURIComponent(tableId)}` }, "Back to the table"))),
    eventText, board, controls));
  load();
}

async function main() {
  if (local) {
    let text = null;
    try { text = localStorage.getItem(LOCAL_RECORD); } catch { /* private mode */ }
    const records = text ? parseRecords(text) : [];
    titleEl.textContent = "Replay · solo game";
    if (records.length) viewer(records, 1, 1);
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
    const res = await fetch(`/api/tables/${encodeURIComponent(tableId)}/record${qs ? `?${qs}` : ""}`);
    if (!res.ok) {
      let message = res.statusText;
      try { message = (await res.json()).error.message; } catch { /* not JSON */ }
      throw Object.assign(new Error(message), { status: res.status });
    }
    const records = parseRecords(await res.text());
    if (!records.length) throw new Error("The record is empty.");
    const rounds = Number(res.headers.get("X-Cambio-Rounds") || "1");
    const header = records[0].header;
    const roundNo = Number(params.get("round") || (header.match && header.match.round) || rounds);
    viewer(records, rounds, roundNo);
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
