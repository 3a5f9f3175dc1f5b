// The table page's waiting room: the seats with their controls, the bot pickers (three
// levels first, the research bots under "More bots"), the join form, the invite link and
// the start box. Drawn from the table's summary and what the page says (env); the page
// (table.js) morphs it into place and makes the REST calls.
import { byId, gameLabel, getName, h, inviteUrl, tableTitle } from "./common.js";
import { houseRuleLines } from "./rules.js";
import { hasKey, t } from "./i18n.js";

/**
 * What the room needs from the page.
 * @typedef {object} WaitingEnv
 * @property {number | null} seat
 * @property {boolean} isHost
 * @property {string} tableId
 * @property {Record<string, BotInfo[]> | null} bots   GET /api/bots
 * @property {import("./rules.js").RulesCatalogue | null} rulesCat
 * @property {Set<string>} touched   the pickers someone chose in: their choice stands
 * @property {string} rulesUrl
 * @property {(seat: number | undefined) => void} joinSeat
 * @property {(seat: number, bot: string) => void} addBot
 * @property {(seat: number) => void} freeSeat
 * @property {() => void} share
 * @property {(fill: string | undefined) => void} start
 */

/**
 * A bot as GET /api/bots lists it (server/lobby.py): `main` and `default` mark the levels a
 * newcomer picks from, `alias_of` a level's research name.
 * @typedef {{ name: string, label?: string, strength?: number, main?: boolean,
 *   default?: boolean, alias_of?: string }} BotInfo
 */

// The card bots a newcomer chooses from: three levels, Medium first
// chosen; the research bots are listed under "More bots". Data-driven: a bot the server
// marks `main` (true/false) or `default` is taken at its word; without marks, by name.
/** @type {Record<string, string[]>} */
const MAIN_BOTS = { cards: ["easy", "medium", "hard", "master"] };
/** @type {Record<string, string>} */
const MAIN_LABELS = { easy: t("bot.easy"), medium: t("bot.medium"), hard: t("bot.hard"), master: t("bot.master") };
/** @type {Record<string, string>} */
const DEFAULT_BOTS = { cards: "medium" };

/** @param {BotInfo} b @param {string} game */
function isMainBot(b, game) {
  if (typeof b.main === "boolean") return b.main;
  const main = MAIN_BOTS[game];
  return !main || main.includes(b.name);
}

/** @param {BotInfo} b @param {string} game */
function botLabel(b, game) {
  const stars = b.strength ? ` (${"★".repeat(Math.min(5, b.strength))})` : "";
  const main = game === "cards" && isMainBot(b, game) && typeof b.main !== "boolean";
  // The registry's label is English; the catalogs name every bot it ships (bot.<name>).
  const label = hasKey(`bot.${b.name}`) ? t(`bot.${b.name}`) : b.label || b.name;
  return `${(main && MAIN_LABELS[b.name]) || label}${stars}`;
}

/** The bot picker of a seat or of the start box. @param {string} id @param {string} game
 * @param {WaitingEnv} env */
function botSelect(id, game, env) {
  const bots = (env.bots && env.bots[game]) || [];
  const marked = bots.find((b) => b.default === true);
  const strongest = bots.reduce((/** @type {BotInfo | null} */ a, b) => ((b.strength ?? 0) > (a ? a.strength ?? 0 : -1) ? b : a), null);
  const chosen = marked || bots.find((b) => b.name === DEFAULT_BOTS[game]) || strongest;
  const option = (/** @type {BotInfo} */ b) => h("option", { value: b.name, selected: chosen && b.name === chosen.name }, botLabel(b, game));
  // An alias (the server lists `medium` for `memory`, `hard` for `deep`) is shown only as a
  // level; a bot shown as a level is not listed again under More bots.
  const levels = MAIN_BOTS[game] || [];
  const main = bots.filter((b) => isMainBot(b, game) && (!b.alias_of || levels.includes(b.name)));
  const shown = new Set(main.map((b) => b.alias_of || b.name));
  const more = bots.filter((b) => !isMainBot(b, game) && !b.alias_of && !shown.has(b.name));
  return h("select", {
    id, class: "bot-pick", "aria-label": t("waiting.botStrength"), dataset: { chosen: chosen ? chosen.name : "" },
    onchange: (/** @type {import("./common.js").SelectChange} */ e) => { env.touched.add(e.target.id); },
  },
    main.map(option),
    more.length ? h("optgroup", { label: t("waiting.moreBots") }, more.map(option)) : null);
}

/**
 * The waiting room of a table whose game has not started: the seats (sit, add a bot,
 * leave or remove), the join form, the invite link, the start box.
 * @param {HTMLElement} waitingEl @param {any} s  the table's summary @param {WaitingEnv} env
 */
export function buildWaiting(waitingEl, s, env) {
  // Read the live select: the room is morphed, the one built here may be a discarded copy.
  const picked = (/** @type {string} */ id) => /** @type {HTMLSelectElement} */ (byId(id)).value;
  const isHost = env.isHost;
  const seated = env.seat !== null;
  const free = s.seats.filter((/** @type {import("./messages.js").SeatSummary} */ x) => x.kind === "empty");
  const panel = h("section.panel.seats-panel", null,
    h("h2", null, tableTitle(s)),
    h("p.muted", null, gameLabel(s)),
    houseRulesBox(s, env));

  const list = h("ul.seat-list");
  for (const seat of s.seats) {
    const me = seat.seat === env.seat;
    const row = h("li.seat-row", { dataset: { seat: seat.seat, kind: seat.kind } });
    const who = seat.kind === "empty"
      ? h("span.muted", null, t("waiting.emptySeat"))
      : h("span.who", null,
        h("strong", null, seat.name || seat.bot || t("common.seat", { no: seat.seat + 1 })),
        seat.kind === "bot" ? h("span.tag.bot", null, t("view.botTag")) : null,
        me ? h("span.tag.you", null, t("waiting.youTag")) : null,
        seat.seat === (s.host ?? 0) ? h("span.tag", null, t("waiting.hostTag")) : null,
        seat.kind === "human" && !seat.connected && !me ? h("span.tag.off", null, t("view.offlineTag")) : null);
    row.append(h("span.seat-no", null, seat.seat + 1), who);
    const controls = h("span.seat-controls");
    if (isHost && seat.kind === "empty") {
      const sel = botSelect(`bot-${seat.seat}`, s.game, env);
      controls.append(sel, h("button", {
        type: "button", class: "add-bot",
        onclick: () => env.addBot(seat.seat, picked(`bot-${seat.seat}`)),
      }, t("waiting.addBot")));
    }
    if (seat.kind === "empty" && !seated) {
      controls.append(h("button.primary", {
        type: "button", class: "sit", onclick: () => env.joinSeat(seat.seat),
      }, t("waiting.sitHere")));
    }
    if ((isHost && seat.kind === "bot") || (me && !isHost)) {
      controls.append(h("button.ghost", {
        type: "button", onclick: () => env.freeSeat(seat.seat),
      }, me ? t("waiting.leave") : t("waiting.remove")));
    }
    row.append(controls);
    list.append(row);
  }
  panel.append(list);

  if (!seated && free.length) {
    panel.append(h("form.join-form", {
      onsubmit: (/** @type {SubmitEvent} */ e) => { e.preventDefault(); env.joinSeat(undefined); },
    },
    h("label.field", { for: "join-name" }, h("span", null, t("lobby.yourName")),
      h("input", {
        id: "join-name", type: "text", maxlength: 40, value: getName(), required: true,
        autocomplete: "nickname",
      })),
    h("button.primary.big", { type: "submit", id: "join" }, t("waiting.join"))));
  } else if (!seated) {
    panel.append(h("p.muted", null, t("waiting.full")));
  }

  const url = inviteUrl(env.tableId);
  panel.append(h("div.invite-box", null,
    h("label.field", { for: "invite" }, h("span", null, t("waiting.inviteLink")),
      h("input", { id: "invite", type: "text", readonly: true, value: url, onfocus: (/** @type {import("./common.js").InputChange} */ e) => e.target.select() })),
    h("button", { type: "button", id: "copy-invite", onclick: env.share }, t("waiting.copyLink"))));

  if (isHost) {
    const fillSel = botSelect("fill-bot", s.game, env);
    panel.append(h("div.start-box", null,
      free.length
        ? h("label.field.inline", { for: "fill-bot" }, h("span", null, t("waiting.fill", { count: free.length })), fillSel)
        : null,
      h("button.primary.big", {
        type: "button", id: "start",
        onclick: () => env.start(free.length ? picked("fill-bot") : undefined),
      }, free.length ? t("waiting.startBots") : t("waiting.start"))));
  } else if (seated) {
    panel.append(h("p.waiting-note", null, t("waiting.forHost")));
  }
  waitingEl.append(panel);
}

/** A card table's house rules in words (not field identifiers), and the rules page.
 * @param {any} s  the table's summary @param {WaitingEnv} env */
function houseRulesBox(s, env) {
  if (s.game !== "cards") return null;
  const lines = houseRuleLines(env.rulesCat, s.rules);
  return h("div.house-list", null,
    lines.length
      ? h("ul", { id: "house-rules" }, lines.map((r) => h("li", { dataset: { rule: r.name }, title: r.help },
        h("strong", null, r.label), `: ${r.value}`, r.help ? h("small.rule-help", null, r.help) : null)))
      : null,
    h("a.button.rules-link", { href: env.rulesUrl, target: "_blank", rel: "noopener" }, t("waiting.readRules")));
}
