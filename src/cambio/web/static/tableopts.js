// @ts-check
// The lobby's table options that both games share: the turn clock (seconds for a live game,
// hours or days for a correspondence game, with what a missed deadline does), and whether
// spectators may read the chat.
// Kept apart from the game form so that switching game or preset never resets them.
import { h } from "./common.js";
import { t } from "./i18n.js";

/** @type {[number, string][]} */
export const CLOCK_CHOICES = [[0, t("clock.off")], [15, t("clock.seconds", { count: 15 })], [30, t("clock.seconds", { count: 30 })], [60, t("clock.minutes", { count: 1 })], [120, t("clock.minutes", { count: 2 })]];

/** A correspondence game's time per move, in seconds, and its words' keys. */
export const CORRESPONDENCE_CHOICES = /** @type {const} */ ([
  [3600, "corr.clock.hour"], [43200, "corr.clock.hours12"], [86400, "corr.clock.day"],
  [259200, "corr.clock.days3"]]);
/** From this many seconds per move on, a table is a correspondence table (the server's rule). */
export const CORRESPONDENCE = 3600;
/** What a missed correspondence deadline does: a bot plays the move, or the player forfeits. */
export const ON_TIMEOUT = /** @type {const} */ (["bot", "forfeit"]);

const opts = {
  clock: 60,           // seconds per decision; 0: no clock
  onTimeout: /** @type {typeof ON_TIMEOUT[number]} */ ("bot"),
  spectatorChat: false,
};

/** The choice of what a missed deadline does (correspondence clocks only). */
function onTimeoutField() {
  return h("label.field.on-timeout", { for: "on-timeout", hidden: opts.clock < CORRESPONDENCE },
    h("span", null, t("corr.on_timeout")),
    h("select", {
      id: "on-timeout", name: "on_timeout",
      onchange: (/** @type {Event} */ e) => {
        opts.onTimeout = /** @type {typeof ON_TIMEOUT[number]} */ (/** @type {HTMLSelectElement} */ (e.target).value);
      },
    }, ON_TIMEOUT.map((v) => h("option", { value: v, selected: v === opts.onTimeout }, t(`corr.on_timeout.${v}`)))));
}

/** The options' fields, built afresh with the values chosen so far. */
export function tableOptionsFields() {
  const onTimeout = onTimeoutField();
  return h("div.row.table-options", null,
    h("label.field", { for: "clock" }, h("span", null, t("clock.turnClock")),
      h("select", {
        id: "clock", name: "clock",
        title: t("clock.help"),
        onchange: (/** @type {import("./common.js").SelectChange} */ e) => {
          opts.clock = Number(e.target.value);
          onTimeout.hidden = opts.clock < CORRESPONDENCE;
        },
      },
      CLOCK_CHOICES.map(([v, label]) => h("option", { value: v, selected: v === opts.clock }, label)),
      h("optgroup", { label: t("corr.clock.group") },
        CORRESPONDENCE_CHOICES.map(([v, key]) => h("option", { value: v, selected: v === opts.clock }, t(key)))))),
    onTimeout,
    h("label.check", { for: "spectator-chat" },
      h("input", {
        type: "checkbox", id: "spectator-chat", checked: opts.spectatorChat,
        onchange: (/** @type {import("./common.js").InputChange} */ e) => { opts.spectatorChat = e.target.checked; },
      }),
      h("span", null, t("chat.spectatorsRead"))));
}

/** The options as fields of a create-table body. */
export function tableOptionsBody() {
  /** @type {{clock: number | null, spectator_chat: boolean, on_timeout?: string}} */
  const body = { clock: opts.clock || null, spectator_chat: opts.spectatorChat };
  if (opts.clock >= CORRESPONDENCE) body.on_timeout = opts.onTimeout;
  return body;
}
