// The lobby's lists of tables: the open tables (refreshed while the page is in sight) and
// the tables this browser holds a seat at ("Your tables"), each a link back to its seat.
import { api, clear, dropToken, gameLabel, getToken, h, morphChildren, myTables, setToken, tableTitle, toast } from "./common.js";
import { playerName } from "./players.js";

/** @typedef {import("./messages.js").TableSummary} TableSummary */
/** @typedef {import("./common.js").ApiError} ApiError */

/** @type {TableSummary[]} */
let tables = [];

/** @param {TableSummary & { id: string }} t */
function tableRow(t) {
  const seats = t.seats || [];
  const taken = seats.filter((s) => s.kind !== "empty").length;
  const mine = !!getToken(t.id);
  const names = seats.filter((s) => s.kind !== "empty")
    .map((s) => (s.kind === "bot" ? s.name || `${s.bot} bot` : s.name)).join(", ");
  return h("li.table-row", { dataset: { table: t.id, key: t.id } },
    h("div.table-info", null,
      h("strong", null, tableTitle(t)),
      h("span.muted", null, gameLabel(t)),
      h("span.seats", null, `${taken}/${seats.length || t.players} seated`, names ? ` · ${names}` : "")),
    h("div.table-actions", null,
      mine
        ? h("a.button.primary", { href: `/t/${encodeURIComponent(t.id)}` }, "Back to my seat")
        : h("button.primary", { type: "button", onclick: () => join(t.id) }, "Join"),
      h("a.button", { href: `/t/${encodeURIComponent(t.id)}?watch=1` }, "Watch")));
}

/** @param {string} id */
async function join(id) {
  const name = playerName();
  if (!name) return;
  try {
    const res = await api("POST", `/api/tables/${id}/join`, { name });
    setToken(id, res.token);
    location.href = `/t/${encodeURIComponent(id)}`;
  } catch (e) {
    const err = /** @type {ApiError} */ (e);
    toast(err.status === 409 ? "That table is full." : err.message, "error");
    refresh();
  }
}

export function tablesPanel() {
  return h("section.panel.open-tables", null,
    h("div.panel-head", null,
      h("h2", null, "Open tables"),
      h("button.ghost", { type: "button", onclick: refresh, "aria-label": "Refresh the list" }, "↻ Refresh")),
    h("ul#tables.tables", { id: "tables" }, h("li.muted", null, "Loading…")));
}

export async function refresh() {
  const list = document.getElementById("tables");
  if (!list) return;
  try {
    const res = await api("GET", "/api/tables");
    tables = res.tables || [];
    const fresh = h("ul");
    if (!tables.length) {
      fresh.append(h("li.muted.empty-list", null, "No open tables right now. Create one and send the link!"));
    }
    for (const t of tables) fresh.append(tableRow(/** @type {TableSummary & { id: string }} */ (t)));
    morphChildren(list, fresh);         // a Join being tapped survives the refresh
  } catch (err) {
    clear(list).append(h("li.muted", null, `Cannot load tables: ${/** @type {Error} */ (err).message}`));
  }
}

export async function yourTables() {
  const ids = myTables();
  if (!ids.length) return;
  const found = await Promise.all(ids.map(async (id) => {
    try {
      return await api("GET", `/api/tables/${encodeURIComponent(id)}`);
    } catch (err) {
      if (/** @type {ApiError} */ (err).status === 404) dropToken(id);      // the table is gone: forget its seat
      return null;
    }
  }));
  /** @type {(TableSummary & { id: string, private?: boolean })[]} */
  const held = found.filter((t) => t && t.status !== "finished")
    .sort((a, b) => String(b.created).localeCompare(String(a.created))).slice(0, 8);
  if (!held.length) return;
  const panel = h("section.panel.your-tables", null,
    h("h2", null, "Your tables"),
    h("ul.tables", null, held.map((t) => h("li.table-row", { dataset: { table: t.id } },
      h("div.table-info", null, h("strong", null, tableTitle(t), t.private ? h("span.tag", null, "private") : null),
        h("span.muted", null, `${gameLabel(t)} · ${t.status === "playing" ? "in play" : "waiting"}`)),
      h("div.table-actions", null,
        h("a.button.primary", { href: `/t/${encodeURIComponent(t.id)}` }, "Back to my seat"))))));
  const col = document.querySelector(".lobby-grid .col:last-child");
  if (col) col.prepend(panel);
}
