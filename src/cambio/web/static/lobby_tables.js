// The lobby's open tables, refreshed while the page is in sight (the player's own games are
// yourgames.js's list).
import { api, errorText, clear, gameLabel, getToken, h, morphChildren, setToken, tableTitle, toast } from "./common.js";
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
    toast(errorText(err), "error");
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
    clear(list).append(h("li.muted", null, t("lobby.cannotLoad", { error: errorText(err) })));
  }
}
