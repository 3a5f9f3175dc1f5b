// Shared helpers for every page: REST calls, seat tokens, a tiny DOM builder, toasts.
import { hasKey, language, t } from "./i18n.js";

/** @typedef {Node | string | number | null | undefined | false} Child */
/** @typedef {Child | Child[] | Child[][]} Children */

/**
 * Build an element: h("button.primary", {onclick}, "Text", child…).
 * @param {string} tag  a tag name and classes, "div.seat.mine"
 * @param {Record<string, any> | null} [attrs]  attributes, `on…` handlers, dataset, class
 * @param {...Children} children
 * @returns {HTMLElement}
 */
export function h(tag, attrs, ...children) {
  const [name, ...classes] = tag.split(".");
  const node = /** @type {HTMLElement & Record<string, any>} */ (document.createElement(name || "div"));
  if (classes.length) node.className = classes.join(" ");
  if (attrs) {
    for (const [key, value] of Object.entries(attrs)) {
      if (value === undefined || value === null || value === false) continue;
      if (key.startsWith("on") && typeof value === "function") {
        node[key] = value;               // a property, so that morph() can hand it over
      } else if (key === "dataset") {
        Object.assign(node.dataset, value);
      } else if (key === "class") {
        node.className += (node.className ? " " : "") + value;
      } else if (key in node && typeof value !== "string") {
        node[key] = value;
      } else {
        node.setAttribute(key, value === true ? "" : String(value));
      }
    }
  }
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

const HANDLERS = ["onclick", "onchange", "oninput", "onsubmit", "onfocus", "ontoggle",
  "onmouseenter", "onmouseleave", "onkeydown"];

/**
 * Make the live `target` look like the freshly built `source`, reusing the nodes that are
 * already there (matched by data-key, else by position and tag). A node under a finger or
 * the keyboard focus stays the same node, so re-rendering never swallows a tap, loses the
 * focus, or restarts an animation. Handlers must be set as properties (h() does), and must
 * not hold on to nodes of `source`: morph moves some into `target` and drops the rest.
 */
/** @param {Node} target @param {Node} source @returns {Node} */
export function morph(target, source) {
  if (target.nodeType !== source.nodeType || target.nodeName !== source.nodeName) {
    /** @type {ChildNode} */ (target).replaceWith(source);
    return source;
  }
  if (!(target instanceof Element) || !(source instanceof Element)) {
    if (target.nodeValue !== source.nodeValue) target.nodeValue = source.nodeValue;
    return target;
  }
  const to = /** @type {Element & Record<string, any>} */ (target);
  const from = /** @type {Element & Record<string, any>} */ (source);
  for (const { name } of [...to.attributes]) {
    if (!from.hasAttribute(name)) to.removeAttribute(name);
  }
  for (const { name, value } of [...from.attributes]) {
    if (to.getAttribute(name) !== value) to.setAttribute(name, value);
  }
  for (const key of HANDLERS) if (to[key] !== from[key]) to[key] = from[key];
  if ("disabled" in from && to.disabled !== from.disabled) to.disabled = from.disabled;
  if (from instanceof HTMLInputElement && to.checked !== from.checked) {
    to.checked = from.checked;
  }
  morphChildren(target, source);
  return target;
}

/** The data-key of an element (morph's identity), else undefined. @param {Node} n */
const keyOf = (n) => (n.nodeType === Node.ELEMENT_NODE ? /** @type {HTMLElement} */ (n).dataset.key : undefined);

/** morph() for the children of `target`, from those of `source` (which it empties).
 * @param {Node} target @param {Node} source */
export function morphChildren(target, source) {
  const next = [...source.childNodes];
  /** @type {Map<string, Node>} */
  const keyed = new Map();
  for (const n of target.childNodes) {
    const key = keyOf(n);
    if (key) keyed.set(key, n);
  }
  next.forEach((n, i) => {
    const key = keyOf(n);
    const here = target.childNodes[i] || null;
    let match = key ? keyed.get(key) : undefined;
    if (!key && here && here.nodeName === n.nodeName && !keyOf(here)) match = here;
    if (match) {
      if (match !== here) target.insertBefore(match, here);
      morph(match, n);
    } else {
      target.insertBefore(n, here);
    }
  });
  while (target.lastChild && target.childNodes.length > next.length) target.removeChild(target.lastChild);
}

/** A page's element that its HTML always has (a missing one is a bug, said at once).
 * @param {string} id @returns {HTMLElement} */
export function byId(id) {
  const el = document.getElementById(id);
  if (!el) throw new Error(`the page has no #${id}`);
  return el;
}

/** A change in a form field, as its handler reads it. @typedef {Event & { target: HTMLInputElement }} InputChange */
/** @typedef {Event & { target: HTMLSelectElement }} SelectChange */

/** @template {Node} T @param {T} node @returns {T} */
export function clear(node) {
  while (node.firstChild) node.removeChild(node.firstChild);
  return node;
}

const TOKEN_PREFIX = "cambio:token:";
const NAME_KEY = "cambio:name";
const ASSIST_KEY = "cambio:assist";

/** @param {string} table */
export function getToken(table) {
  try { return localStorage.getItem(TOKEN_PREFIX + table); } catch { return null; }
}
/** @param {string} table @param {string} token */
export function setToken(table, token) {
  try { localStorage.setItem(TOKEN_PREFIX + table, token); } catch { /* private mode */ }
}
/** @param {string} table */
export function dropToken(table) {
  try { localStorage.removeItem(TOKEN_PREFIX + table); } catch { /* private mode */ }
}
/** The tables this browser holds a seat token for. */
export function myTables() {
  const out = [];
  try {
    for (let i = 0; i < localStorage.length; i++) {
      const key = localStorage.key(i);
      if (key && key.startsWith(TOKEN_PREFIX)) out.push(key.slice(TOKEN_PREFIX.length));
    }
  } catch { /* private mode */ }
  return out;
}
export function getName() {
  try { return localStorage.getItem(NAME_KEY) || ""; } catch { return ""; }
}
/** @param {string} name */
export function setName(name) {
  try { localStorage.setItem(NAME_KEY, name); } catch { /* private mode */ }
}
export function getAssist() {
  try { return localStorage.getItem(ASSIST_KEY) === "1"; } catch { return false; }
}
/** @param {boolean} on */
export function setAssist(on) {
  try { localStorage.setItem(ASSIST_KEY, on ? "1" : "0"); } catch { /* private mode */ }
}

export class ApiError extends Error {
  /**
   * @param {number} status @param {string} code @param {string} message  the server's English
   * @param {string} [key] @param {Record<string, unknown>} [params]  the words to show instead
   */
  constructor(status, code, message, key, params) {
    super(message);
    this.status = status;
    this.code = code;
    this.key = key;
    this.params = params;
  }
}

/** Each error code's words, for a refusal the server named no words for. */
/** @type {Record<string, string>} */
const CODE_WORDS = {
  bad_message: "error.badRequest", bad_request: "error.badRequest", busy: "error.busy",
  conflict: "error.conflict", forbidden: "error.forbidden", illegal: "error.illegal",
  invalid_token: "error.invalidToken", network: "error.network", not_found: "error.notFound",
  not_playing: "error.notPlaying", rate_limited: "error.rateLimited", server_error: "error.serverError",
  stale: "error.stale", too_large: "error.tooLarge", unauthorized: "error.unauthorized",
  unavailable: "error.unavailable", unsupported_media_type: "error.badRequest",
};

/**
 * What to show for a refusal -- a REST call's ApiError or a WebSocket `error` -- in the
 * reader's language: the words the server named (`key`, `params`), else its code's words.
 * Never the server's `message`, which is English for terminals and scripts.
 * @param {unknown} err @returns {string}
 */
export function errorText(err) {
  const e = /** @type {{ code?: unknown, key?: unknown, params?: unknown }} */ (err && typeof err === "object" ? err : {});
  if (typeof e.key === "string" && hasKey(e.key)) {
    /** @type {Record<string, string | number>} */
    const params = {};
    for (const [name, value] of Object.entries(e.params && typeof e.params === "object" ? e.params : {})) {
      if (typeof value === "string" || typeof value === "number") params[name] = value;
    }
    return t(e.key, params);
  }
  return t(CODE_WORDS[String(e.code)] || "error.failed");
}

/** Call the REST API; resolves to the parsed JSON (or text for ndjson), throws ApiError. */
/**
 * @param {string} method @param {string} path @param {unknown} [body] @param {string | null} [token]
 * @returns {Promise<any>}
 */
export async function api(method, path, body, token) {
  // The reader's language (their choice, over the browser's): words the server makes
  // (the rules' names) come back in it.
  /** @type {Record<string, string>} */
  const headers = { "Accept-Language": language() };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers["Authorization"] = `Bearer ${token}`;
  let res;
  try {
    res = await fetch(path, {
      method, headers, body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (err) {
    throw new ApiError(0, "network", t("error.network"));
  }
  const type = res.headers.get("Content-Type") || "";
  if (!res.ok) {
    let code = String(res.status);
    let message = res.statusText || t("error.failed");
    /** @type {string | undefined} */
    let key;
    /** @type {Record<string, unknown> | undefined} */
    let params;
    try {
      const data = await res.json();
      if (data && data.error) {
        code = data.error.code || code;
        message = data.error.message || message;
        key = data.error.key;
        params = data.error.params;
      }
    } catch { /* not JSON */ }
    throw new ApiError(res.status, code, message, key, params);
  }
  if (type.includes("json") && !type.includes("ndjson")) return res.json();
  return res.text();
}

const PHONE = "(max-width: 520px)";

/**
 * Show a short message. On a wide screen it floats at the bottom right, over nothing one
 * needs. On a phone a floating message covered the top bar or, at the bottom, your own
 * cards: there it goes into the page's notice line (`#notices`, in the flow of the
 * page, just above the status line), which shows the newest message only and keeps its
 * height, so nothing moves when a message comes or goes.
 */
/** @param {string} message @param {string} [kind] @param {number} [ms] */
export function toast(message, kind = "info", ms = 3500) {
  const inline = matchMedia(PHONE).matches ? document.getElementById("notices") : null;
  let box = inline;
  if (!box) {
    box = document.getElementById("toasts");
    if (!box) {
      box = h("div.toasts", { id: "toasts", role: "status", "aria-live": "polite" });
      document.body.append(box);
    }
  }
  const host = box;
  const item = h("div.toast", { class: `toast-${kind}` }, message);
  if (inline) {
    inline.replaceChildren(item);
    if (inline.dataset.reveal !== undefined) inline.scrollIntoView({ block: "nearest" });
  } else host.append(item);
  setTimeout(() => item.classList.add("toast-out"), ms);
  setTimeout(() => item.remove(), ms + 400);
}

/** The notice line of a page (see toast()); `reveal`: scroll it into sight for a message. */
export function noticeLine(reveal = false) {
  return h("div.notices", {
    id: "notices", role: "status", "aria-live": "polite", dataset: reveal ? { reveal: "" } : null,
  });
}

/** Copy text to the clipboard, falling back to the share sheet or a prompt.
 * @param {string} text */
export async function copyText(text) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    try {
      const area = /** @type {HTMLTextAreaElement} */ (h("textarea", { readonly: true }, text));
      area.style.position = "fixed";
      area.style.opacity = "0";
      document.body.append(area);
      area.select();
      const ok = document.execCommand("copy");
      area.remove();
      return ok;
    } catch {
      return false;
    }
  }
}

/**
 * Offer a link: the system's share sheet on a touch device, else copied to the clipboard (a
 * toast says so, or shows the link when it could not be copied).
 * @param {string} url @param {string} title
 */
export async function shareLink(url, title) {
  if (navigator.share && matchMedia("(pointer: coarse)").matches) {
    try {
      await navigator.share({ title, url });
      return;
    } catch { /* cancelled: fall back to copying */ }
  }
  toast(await copyText(url) ? t("table.copied") : url, "info");
}

/** The invite link of a table, absolute.
 * @param {string} id */
export function inviteUrl(id) {
  return new URL(`/t/${encodeURIComponent(id)}`, location.href).href;
}

/** @param {any} summary */
export function gameLabel(summary) {
  if (summary.game === "board") {
    return [t("game.board"), t("common.players", { count: summary.players }), summary.setup === "full" ? t("label.setupFull") : t("label.setupQuick")].join(" · ");
  }
  if (summary.game !== "cards") return `${summary.game} · ${t("common.players", { count: summary.players })}`;
  const preset = summary.rules && summary.rules.preset ? summary.rules.preset : "rulebook";
  const n = summary.rules && summary.rules.overrides
    ? Object.keys(summary.rules.overrides).length : 0;
  const house = n ? ` + ${t("label.houseRules", { count: n })}` : "";
  const rounds = summary.rounds > 1 ? ` · ${t("label.rounds", { count: summary.rounds })}` : "";
  return `${t("game.cards")} · ${t("common.players", { count: summary.players })} · ${t(`preset.${preset}`)}${house}${rounds}`;
}

/**
 * @param {import("./messages.js").TableSummary | null | undefined} summary
 * @param {number | null | undefined} seat
 */
export function seatName(summary, seat) {
  const no = Number(seat) + 1;   // (null: seat 1, as a number would read it)
  if (!summary || !summary.seats) return t("common.seat", { no });
  const s = summary.seats.find((x) => x.seat === seat);
  if (!s) return t("common.seat", { no });
  if (s.kind === "empty") return t("common.seat", { no });
  const name = (s.kind === "bot" && s.bot && botName(s.bot)) || s.name || (s.kind === "bot" ? (s.bot || "bot") : t("common.seat", { no }));
  // Two "memory bot"s (or two Annas) at one table: tell them apart by seat.
  const twins = summary.seats.filter((x) => x.kind !== "empty" && x.name === s.name);
  return twins.length > 1 ? `${name} ${no}` : name;
}

/** A shipped bot's name in the reader's language ("Mittel (Bot)"), at its seat and on its
 * profile; the server names it in English ("Medium bot"). null for a bot the catalogs do not
 * know (an outside bot keeps the name it was served with). @param {string} bot */
export function botName(bot) {
  const key = `botName.${bot}`;
  return hasKey(key) ? t("bot.seat", { name: t(key) }) : null;
}

/** A player of a game row: a shipped bot (profile id "bot:<name>") in the reader's language,
 * anyone else by the name they played under.
 * @param {{ player?: string, name: string }} p */
export function playerName(p) {
  return (p.player && p.player.startsWith("bot:") && botName(p.player.slice(4))) || p.name;
}

/** A bot's strength in stars out of five (the research figure behind them, in English, is
 * in the API's "measured").
 * @param {number | null | undefined} stars */
export function botStrength(stars) {
  const n = Math.max(0, Math.min(5, Math.round(stars || 0)));
  return n ? t("profile.botStrength", { stars: "★".repeat(n) + "☆".repeat(5 - n), count: n })
    : t("profile.botUnmeasured");
}

/** A table's title: the name it was given, else the host's name ("Ann's table").
 * @param {any} summary */
export function tableTitle(summary) {
  if (summary && summary.table_name) return summary.table_name;
  const host = summary && summary.seats ? summary.seats.find((/** @type {any} */ x) => x.seat === (summary.host ?? 0)) : null;
  return host && host.name ? t("lobby.someonesTable", { name: host.name }) : t("now.table");
}
