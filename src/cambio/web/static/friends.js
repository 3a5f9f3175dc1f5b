// @ts-check
// Friends: the players one follows, which of them are online and what they play (the
// lobby's panel), the invites they sent (notices at the top of the lobby), and a list to
// invite them from at one's own waiting table.
import { api, errorText, h, toast } from "./common.js";
import { t } from "./i18n.js";

/**
 * @typedef {object} Friend
 * @property {string} id
 * @property {string} name
 * @property {string} profile
 * @property {boolean} online
 * @property {{game: string, private: boolean, table: string | null}[]} playing
 */
/**
 * @typedef {object} Invite
 * @property {{id: string, name: string, profile: string}} from
 * @property {string} table
 * @property {string} game
 * @property {string} link
 */

const POLL_MS = 15_000;

/** @param {string} game */
function gameName(game) {
  return game === "cards" || game === "board" ? t(`social.game.${game}`) : game;
}

/** What a friend is doing, in words (a private game is never named).
 * @param {Friend} f @returns {(string | HTMLElement)[]} */
function doing(f) {
  if (!f.playing.length) return [t(f.online ? "social.friends.online" : "social.friends.offline")];
  return f.playing.flatMap((g, i) => [i ? ", " : "",
    t(g.private ? "social.friends.private" : "social.friends.plays", { game: gameName(g.game) }),
    ...(g.table ? [" ", h("a.watch", { href: `/t/${encodeURIComponent(g.table)}?watch=1` }, t("social.friends.watch"))] : [])]);
}

/** @param {Friend} f */
function friendRow(f) {
  return h("li.friend", { dataset: { player: f.id, key: f.id, online: f.online ? "1" : "0" } },
    h("span.presence", { class: f.online ? "on" : "off", "aria-hidden": "true" }),
    h("a.friend-name", { href: f.profile }, f.name),
    h("span.muted.friend-doing", null, " · ", doing(f)));
}

/** The lobby's friends panel (its list filled by followFriends()). */
export function friendsPanel() {
  return h("section.panel.friends", { id: "friends" },
    h("h2", null, t("social.friends.title")),
    h("ul.friend-list", { id: "friends-list" }, h("li.muted", null, t("social.friends.none"))));
}

/** The lobby's invites: notices above everything (filled by followFriends()). */
export function invitesBox() {
  return h("ul.invites", { id: "invites", hidden: true, "aria-live": "polite" });
}

/** @param {Invite} inv @param {() => void} gone */
function inviteRow(inv, gone) {
  return h("li.invite.panel", { dataset: { table: inv.table, key: inv.table } },
    h("span", null, t("social.invites.from", { name: inv.from.name, game: gameName(inv.game) })),
    h("a.button.primary", { href: inv.link }, t("social.invites.go")),
    h("button.ghost", {
      type: "button", dataset: { act: "dismiss" },
      onclick: async () => {
        try {
          await api("DELETE", `/api/players/me/invites/${encodeURIComponent(inv.table)}`);
        } catch (err) {
          toast(errorText(err), "error");
        }
        gone();
      },
    }, t("social.invites.dismiss")));
}

/**
 * Keep the friends panel and the invites current: now, every few seconds, and when the page
 * is shown again. A new invite is also said in a toast.
 * @param {HTMLElement} panel @param {HTMLElement} invites
 */
export function followFriends(panel, invites) {
  const list = /** @type {HTMLElement} */ (panel.querySelector("#friends-list"));
  /** @type {Set<string> | null} */
  let known = null;
  const refresh = async () => {
    try {
      const [friends, invited] = await Promise.all([api("GET", "/api/players/me/follows"),
        api("GET", "/api/players/me/invites")]);
      /** @type {Friend[]} */
      const people = friends.players;
      list.replaceChildren(...(people.length ? people.map(friendRow)
        : [h("li.muted", null, t("social.friends.none"))]));
      /** @type {Invite[]} */
      const all = invited.invites;
      invites.replaceChildren(...all.map((inv) => inviteRow(inv, refresh)));
      invites.hidden = !all.length;
      if (known) {
        for (const inv of all.filter((i) => !known?.has(i.table))) {
          toast(t("social.invites.from", { name: inv.from.name, game: gameName(inv.game) }), "info", 8000);
        }
      }
      known = new Set(all.map((i) => i.table));
    } catch { /* no player yet, or offline: the next look */ }
  };
  refresh();
  setInterval(refresh, POLL_MS);
  addEventListener("focus", refresh);
  return refresh;
}

/**
 * The waiting table's "invite a friend" list: the friends one follows, online first, each
 * with a button that invites them here (the invite shows in their lobby).
 * @param {string} tableId
 */
export function inviteFriendsBox(tableId) {
  const list = h("ul.friend-list", { id: "invite-list" });
  const box = h("section.panel.invite-friends", { id: "invite-friends", hidden: true },
    h("h2", null, t("social.invite.title")), list);
  api("GET", "/api/players/me/follows").then((res) => {
    /** @type {Friend[]} */
    const people = res.players;
    if (!people.length) return;
    list.replaceChildren(...people.map((f) => h("li.friend", { dataset: { player: f.id } },
      h("span.presence", { class: f.online ? "on" : "off", "aria-hidden": "true" }),
      h("span.friend-name", null, f.name), " ",
      h("button", {
        type: "button", dataset: { act: "invite" },
        onclick: async (/** @type {Event} */ e) => {
          const button = /** @type {HTMLButtonElement} */ (e.currentTarget);
          try {
            await api("POST", `/api/players/${encodeURIComponent(f.id)}/invite`, { table: tableId });
            button.disabled = true;
            button.textContent = t("social.invite.sent");
          } catch (err) {
            toast(errorText(err), "error");
          }
        },
      }, t("social.invite.do")))));
    box.hidden = false;
  }, () => { /* no player on this browser: nobody to invite */ });
  return box;
}
