// Shared helpers for every page: REST calls, seat tokens, a tiny DOM builder, toasts.

/** Build an element: h("button.primary", {onclick}, "Text", child…). */
export function h(tag, attrs, ...children) {
  const [name, ...classes] = tag.split(".");
  const node = document.createElement(name || "div");
  if (classes.length) node.className = classes.join(" ");
  if (attrs) {
    for (const [key, value] of Object.entries(attrs)) {
      if (value === undefined || value === null || value === false) continue;
      if (key.startsWith("on") && typeof value === "function") {
        node.addEventListener(key.slice(2), value);
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

export function clear(node) {
  while (node.firstChild) node.removeChild(node.firstChild);
  return node;
}

const TOKEN_PREFIX = "cambio:token:";
const NAME_KEY = "cambio:name";
const ASSIST_KEY = "cambio:assist";

export function getToken(table) {
  try { return localStorage.getItem(TOKEN_PREFIX + table); } catch { return null; }
}
export function setToken(table, token) {
  try { localStorage.setItem(TOKEN_PREFIX + table, token); } catch { /* private mode */ }
}
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
export function setName(name) {
  try { localStorage.setItem(NAME_KEY, name); } catch { /* private mode */ }
}
export function getAssist() {
  try { return localStorage.getItem(ASSIST_KEY) === "1"; } catch { return false; }
}
export function setAssist(on) {
  try { localStorage.setItem(ASSIST_KEY, on ? "1" : "0"); } catch { /* private mode */ }
}

export class ApiError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

/** Call the REST API; resolves to the parsed JSON (or text for ndjson), throws ApiError. */
export async function api(method, path, body, token) {
  const headers = {};
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers["Authorization"] = `Bearer ${token}`;
  let res;
  try {
    res = await fetch(path, {
      method, headers, body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (err) {
    throw new ApiError(0, "network", "The server cannot be reached.");
  }
  const type = res.headers.get("Content-Type") || "";
  if (!res.ok) {
    let code = String(res.status);
    let message = res.statusText || "Request failed";
    try {
      const data = await res.json();
      if (data && data.error) {
        code = data.error.code || code;
        message = data.error.message || message;
      }
    } catch { /* not JSON */ }
    throw new ApiError(res.status, code, message);
  }
  if (type.includes("json") && !type.includes("ndjson")) return res.json();
  return res.text();
}

/** Show a short message at the bottom of the screen. */
export function toast(message, kind = "info", ms = 3500) {
  let box = document.getElementById("toasts");
  if (!box) {
    box = h("div.toasts", { id: "toasts", role: "status", "aria-live": "polite" });
    document.body.append(box);
  }
  const item = h("div.toast", { class: `toast-${kind}` }, message);
  box.append(item);
  setTimeout(() => item.classList.add("toast-out"), ms);
  setTimeout(() => item.remove(), ms + 400);
}

/** Copy text to the clipboard, falling back to the share sheet or a prompt. */
export async function copyText(text) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    try {
      const area = h("textarea", { readonly: true }, text);
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

/** The invite link of a table, absolute. */
export function inviteUrl(id) {
  return new URL(`/t/${encodeURIComponent(id)}`, location.href).href;
}

export function gameLabel(summary) {
  if (summary.game === "board") {
    return `Dice board · ${summary.players} players · ${summary.setup || "quick"} setup`;
  }
  const preset = summary.rules && summary.rules.preset ? summary.rules.preset : "rulebook";
  const n = summary.rules && summary.rules.overrides
    ? Object.keys(summary.rules.overrides).length : 0;
  const house = n ? ` + ${n} house rule${n > 1 ? "s" : ""}` : "";
  const rounds = summary.rounds > 1 ? ` · ${summary.rounds} rounds` : "";
  return `Cards · ${summary.players} players · ${preset}${house}${rounds}`;
}

export function seatName(summary, seat) {
  if (!summary || !summary.seats) return `Seat ${seat + 1}`;
  const s = summary.seats.find((x) => x.seat === seat);
  if (!s) return `Seat ${seat + 1}`;
  if (s.kind === "empty") return `Seat ${seat + 1}`;
  return s.name || (s.kind === "bot" ? (s.bot || "bot") : `Seat ${seat + 1}`);
}

/** A table's title: the host's name ("Ann's table"). */
export function tableTitle(summary) {
  const host = summary && summary.seats ? summary.seats.find((x) => x.seat === (summary.host ?? 0)) : null;
  return host && host.name ? `${host.name}'s table` : "Table";
}
