// @ts-check
// The lobby's way to the daily deal (/daily): a short panel with one link.
import { h } from "./common.js";
import { t } from "./i18n.js";

/** @returns {HTMLElement} */
export function dailyPanel() {
  return h("section.panel.daily-link", { id: "daily-link" },
    h("h2", null, t("daily.lobbyTitle")),
    h("p.muted", null, t("daily.lobbyText")),
    h("a.button", { href: "/daily" }, t("daily.lobbyOpen")));
}
