// The lobby's lists of tables: the open tables (refreshed while the page is in sight) and
// the tables this browser holds a seat at ("Your tables"), each a link back to its seat.
import { api, clear, dropToken, gameLabel, getToken, h, morphChildren, myTables, setToken, tableTitle, toast } from "./common.js";
import { playerName } from "./players.js";
import { t } from "./i18n.js";

/** @typedef {import("./messages.js").TableSummary} TableSummary */
/** @typedef {import("./common.js").ApiError} ApiError */

/** @type {TableSummary[]} */
let tables = [];

/** @param {TableSummary & { id: string }} tb */
function tableRow(tb) {
  const seats = tb.seats || [];
  const taken = seats.filter((s) => s.kind !== "empty").length;
  const mine = !!getToken(tb.id);
  const names = seats.filter((s) => s.kind !== "empty")
    .map((s) => (s.kind === "bot" ? s.name || t("common.botNamed", { bot: s.bot ?? "" }) : s.name)).join(", ");
  return h("li.table-row", { dataset: { table: tb.id, key: tb.id } },
    h("div.table-info", null,
      h("strong", null, tableTitle(tb)),
      h("span.muted", null, gameLabel(tb)),
      h("span.seats", null, t("lobby.seated", { taken, seats: seats.length || tb.players || 0 }), names ? ` · ${names}` : "")),
    h("div.table-actions", null,
      mine
        ? h("a.button.primary", { href: `/t/${encodeURIComponent(tb.id)}` }, t("lobby.backToSeat"))
        : h("button.primary", { type: "button", onclick: () => join(tb.id) }, t("lobby.join")),
      h("a.button", { href: `/t/${encodeURIComponent(tb.id)}?watch=1` }, t("lobby.watch"))));
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
    toast(err.status === 409 ? t("lobby.tableFull") : err.message, "error");
    refresh();
  }
}

export function tablesPanel() {
  return h("section.panel.open-tables", null,
    h("div.panel-head", null,
      h("h2", null, t("lobby.openTables")),
      h("button.ghost", { type: "button", onclick: refresh, "aria-label": t("lobby.refreshList") }, "↻ ", t("lobby.refresh"))),
    h("ul#tables.tables", { id: "tables" }, h("li.muted", null, t("common.loading"))));
}

export async function refresh() {
  const list = document.getElementById("tables");
  if (!list) return;
  try {
    const res = await api("GET", "/api/tables");
    tables = res.tables || [];
    const fresh = h("ul");
    if (!tables.length) {
      fresh.append(h("li.muted.empty-list", null, t("lobby.noTables")));
    }
    for (const tb of tables) fresh.append(tableRow(/** @type {TableSummary & { id: string }} */ (tb)));
    morphChildren(list, fresh);         // a Join being tapped survives the refresh
  } catch (err) {
    clear(list).append(h("li.muted", null, t("lobby.cannotLoad", { error: /** @type {Error} */ (err).message })));
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
  const held = found.filter((tb) => tb && tb.status !== "finished")
    .sort((a, b) => String(b.created).localeCompare(String(a.created))).slice(0, 8);
  if (!held.length) return;
  const panel = h("section.panel.your-tables", null,
    h("h2", null, t("lobby.yourTables")),
    h("ul.tables", null, held.map((tb) => h("li.table-row", { dataset: { table: tb.id } },
      h("div.table-info", null, h("strong", null, tableTitle(tb), tb.private ? h("span.tag", null, t("lobby.privateTag")) : null),
        h("span.muted", null, `${gameLabel(tb)} · ${tb.status === "playing" ? t("lobby.inPlay") : t("lobby.waiting")}`)),
      h("div.table-actions", null,
        h("a.button.primary", { href: `/t/${encodeURIComponent(tb.id)}` }, t("lobby.backToSeat")))))));
  const col = document.querySelector(".lobby-grid .col:last-child");
  if (col) col.prepend(panel);
}
