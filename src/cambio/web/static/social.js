// @ts-check
// One player's choices about another (docs/moderation.md): follow, mute, block and report,
// kept on the server so that they hold on every device the player uses. The profile shows
// them as buttons; a chat line's menu offers mute, block and report of its speaker.
import { api, errorText, h, toast } from "./common.js";
import { language, t } from "./i18n.js";

/** @typedef {{id: string, name: string, username: string | null, profile: string}} Person */
/** @typedef {"follow" | "mute" | "block"} Verb */

/** Why one reports a player, as the server takes them. */
export const REASONS = /** @type {const} */ (["abuse", "cheating", "spam", "name", "other"]);
const LISTS = /** @type {const} */ ({ follow: "follows", mute: "mutes", block: "blocks" });

/**
 * Follow, mute or block a player (`on`), or stop.
 * @param {Verb} verb @param {string} id @param {boolean} on
 */
export function relate(verb, id, on) {
  return api(on ? "POST" : "DELETE", `/api/players/${encodeURIComponent(id)}/${verb}`, on ? {} : undefined);
}

/**
 * The players the caller follows, mutes or blocks.
 * @param {Verb} verb @returns {Promise<Person[]>}
 */
export async function listed(verb) {
  return (await api("GET", `/api/players/me/${LISTS[verb]}`)).players;
}

/**
 * Ask for a reason (and a note) and report the player; `table` and `line`: the table and chat
 * line reported from (the server reads the table's chat itself).
 * @param {Person} person @param {{table?: string, line?: number}} [from]
 */
export function reportDialog(person, from = {}) {
  const reason = /** @type {HTMLSelectElement} */ (h("select", { id: "report-reason", name: "reason", required: true },
    REASONS.map((r) => h("option", { value: r }, t(`social.reason.${r}`)))));
  const note = /** @type {HTMLTextAreaElement} */ (h("textarea", { id: "report-note", name: "note", maxlength: 500, rows: 3 }));
  const dialog = /** @type {HTMLDialogElement} */ (h("dialog.report-dialog", { id: "report-dialog" }));
  const form = h("form", {
    method: "dialog",
    onsubmit: async (/** @type {SubmitEvent} */ e) => {
      e.preventDefault();
      try {
        await api("POST", `/api/players/${encodeURIComponent(person.id)}/report`,
          { reason: reason.value, note: note.value, ...from });
        toast(t("social.report.sent"), "info");
        dialog.close();
      } catch (err) {
        toast(errorText(err), "error");
      }
    },
  },
  h("h2", null, t("social.report.title", { name: person.name })),
  h("p.muted", null, from.table ? t("social.report.with_chat") : t("social.report.help")),
  h("label.field", { for: "report-reason" }, h("span", null, t("social.report.reason")), reason),
  h("label.field", { for: "report-note" }, h("span", null, t("social.report.note")), note),
  h("div.row", null,
    h("button.primary", { type: "submit", id: "report-send" }, t("social.report.send")),
    h("button.ghost", { type: "button", onclick: () => dialog.close() }, t("social.cancel"))));
  dialog.append(form);
  dialog.addEventListener("close", () => dialog.remove());
  document.body.append(dialog);
  dialog.showModal();
  return dialog;
}

/**
 * A button that turns a relation on and off, showing which it is (`data-on`).
 * @param {Verb} verb @param {Person} person @param {boolean} on
 * @param {(on: boolean) => void} [changed]
 */
function toggle(verb, person, on, changed) {
  const button = h("button", { type: "button", id: `social-${verb}`, dataset: { on: on ? "1" : "0" } });
  const show = () => {
    const now = button.dataset.on === "1";
    button.textContent = t(`social.${verb}.${now ? "undo" : "do"}`);
    // Follow is the profile's main offer; the rest stay quiet until used.
    button.className = verb === "follow" && !now ? "primary" : "ghost";
  };
  button.onclick = async () => {
    const want = button.dataset.on !== "1";
    try {
      await relate(verb, person.id, want);
    } catch (err) {
      toast(errorText(err), "error");
      return;
    }
    button.dataset.on = want ? "1" : "0";
    show();
    toast(t(`social.${verb}.${want ? "done" : "undone"}`, { name: person.name }), "info");
    if (changed) changed(want);
  };
  show();
  return button;
}

/**
 * The profile's buttons about this player, from the caller's lists (nothing for oneself, a
 * bot, or a browser with no player).
 * @param {Person} person @param {string | null} me  the caller's player id
 */
export async function profileActions(person, me) {
  if (!me || me === person.id || person.id.startsWith("bot:")) return null;
  let lists;
  try {
    lists = await Promise.all(["follow", "mute", "block"].map((v) => listed(/** @type {Verb} */ (v))));
  } catch {
    return null;
  }
  const [follows, mutes, blocks] = lists.map((l) => new Set(l.map((p) => p.id)));
  const follow = toggle("follow", person, follows.has(person.id));
  const block = toggle("block", person, blocks.has(person.id), (on) => {
    // A block ends following both ways (the server did it).
    if (on) { follow.dataset.on = "0"; follow.textContent = t("social.follow.do"); follow.className = "primary"; }
  });
  return h("div.social-actions", { id: "social-actions" },
    follow, toggle("mute", person, mutes.has(person.id)), block,
    h("button.ghost", { type: "button", id: "social-report", onclick: () => reportDialog(person) }, t("social.report.do")));
}

/**
 * The menu of a chat line's speaker (another seat's player): mute, block, report, profile.
 * `people(seat)` resolves to who sits there (null: nobody's player, a bot); `hidden(seat)`
 * is told when their lines are to go from this page.
 * @param {string} tableId
 * @param {(seat: number) => Promise<Person | null>} people
 * @param {(seat: number) => void} hidden
 * @returns {(line: {n: number, seat: number}) => HTMLElement}
 */
export function chatLineMenu(tableId, people, hidden) {
  return (line) => {
    /** @param {(p: Person) => Promise<void> | void} fn */
    const about = (fn) => async (/** @type {Event} */ e) => {
      const menu = /** @type {HTMLElement} */ (e.currentTarget).closest("details");
      if (menu) menu.open = false;     // one choice made: the menu folds
      const person = await people(line.seat);
      if (!person) {
        toast(t("social.chat.nobody"), "warn");
        return;
      }
      try {
        await fn(person);
      } catch (err) {
        toast(errorText(err), "error");
      }
    };
    const hush = (/** @type {Verb} */ verb) => about(async (p) => {
      await relate(verb, p.id, true);
      toast(t(`social.${verb}.done`, { name: p.name }), "info");
      hidden(line.seat);
    });
    return h("details.chat-more", null,
      h("summary", { "aria-label": t("social.chat.menu"), title: t("social.chat.menu") }, "⋯"),
      h("div.chat-menu", null,
        h("button.ghost", { type: "button", dataset: { act: "mute" }, onclick: hush("mute") }, t("social.mute.do")),
        h("button.ghost", { type: "button", dataset: { act: "block" }, onclick: hush("block") }, t("social.block.do")),
        h("button.ghost", {
          type: "button", dataset: { act: "report" },
          onclick: about((p) => { reportDialog(p, { table: tableId, line: line.n }); }),
        }, t("social.report.do")),
        h("button.ghost", {
          type: "button", dataset: { act: "profile" },
          onclick: about((p) => { location.href = p.profile; }),
        }, t("social.chat.profile"))));
  };
}

/**
 * Who sits at each seat of a table, read once and again when a seat is not known yet.
 * @param {string} tableId @returns {(seat: number) => Promise<Person | null>}
 */
export function seatedPeople(tableId) {
  /** @type {Record<string, Person>} */
  let seats = {};
  return async (seat) => {
    if (!seats[seat]) {
      try {
        seats = (await api("GET", `/api/tables/${encodeURIComponent(tableId)}/people`)).seats;
      } catch {
        return null;
      }
    }
    return seats[seat] || null;
  };
}

/**
 * The player's own standing with the server's operators (a mute or ban in force, the
 * warnings they were given), for their own profile; null when there is nothing to say.
 */
export async function standingPanel() {
  /** @type {{sanctions: {kind: string, until: string | null, reason: string}[], warnings: {at: string, reason: string}[]}} */
  let standing;
  try {
    standing = await api("GET", "/api/players/me/standing");
  } catch {
    return null;
  }
  const { sanctions, warnings } = standing;
  if (!sanctions.length && !warnings.length) return null;
  /** @param {string} iso */
  const date = (iso) => new Date(iso).toLocaleString(language());
  return h("section.panel.standing", { id: "standing" },
    h("h2", null, t("social.standing.title")),
    h("ul", null,
      sanctions.map((s) => h("li.sanction", { dataset: { kind: s.kind } },
        t(`social.standing.${s.kind === "ban" ? "ban" : "mute"}`, { reason: s.reason }), " ",
        s.until ? t("social.standing.until", { when: date(s.until) }) : t("social.standing.lifted"))),
      warnings.map((w) => h("li.warning", null, t("social.standing.warned", { when: date(w.at), reason: w.reason })))));
}
