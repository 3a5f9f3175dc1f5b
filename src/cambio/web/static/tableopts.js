// The lobby's table options that both games share: the turn clock, and whether spectators
// may read the chat.
// Kept apart from the game form so that switching game or preset never resets them.
import { h } from "./common.js";
import { t } from "./i18n.js";

/** @type {[number, string][]} */
export const CLOCK_CHOICES = [[0, t("clock.off")], [15, t("clock.seconds", { count: 15 })], [30, t("clock.seconds", { count: 30 })], [60, t("clock.minutes", { count: 1 })], [120, t("clock.minutes", { count: 2 })]];

const opts = {
  clock: 60,           // seconds per decision; 0: no clock
  spectatorChat: false,
};

/** The options' fields, built afresh with the values chosen so far. */
export function tableOptionsFields() {
  return h("div.row.table-options", null,
    h("label.field", { for: "clock" }, h("span", null, t("clock.turnClock")),
      h("select", {
        id: "clock", name: "clock",
        title: t("clock.help"),
        onchange: (/** @type {import("./common.js").SelectChange} */ e) => { opts.clock = Number(e.target.value); },
      }, CLOCK_CHOICES.map(([v, label]) => h("option", { value: v, selected: v === opts.clock }, label)))),
    h("label.check", { for: "spectator-chat" },
      h("input", {
        type: "checkbox", id: "spectator-chat", checked: opts.spectatorChat,
        onchange: (/** @type {import("./common.js").InputChange} */ e) => { opts.spectatorChat = e.target.checked; },
      }),
      h("span", null, t("chat.spectatorsRead"))));
}

/** The options as fields of a create-table body. */
export function tableOptionsBody() {
  return { clock: opts.clock || null, spectator_chat: opts.spectatorChat };
}
