// The table's WebSocket: versions, gap detection, reconnect with backoff, keep-alive.
//
// The server is the authority. This object only keeps the last version it has applied,
// drops duplicates, asks for a `sync` when it sees a gap or comes back after a drop, and
// hands each accepted message to the page.

const PING_EVERY_MS = 15000;
const SILENCE_MS = 40000;
const BACKOFF_MS = [300, 800, 1500, 3000, 5000, 8000];
/** The protocol version this client speaks (docs/protocol.md, "Versions"). */
export const PROTOCOL = 2;

/**
 * A server speaking another protocol: this page is an old copy (kept by the service
 * worker, or a tab left open over a release). Fetch the new client and reload, once per
 * version, so a server that really is older cannot make the page reload for ever.
 */
/** @param {unknown} protocol */
function outdated(protocol) {
  if (typeof protocol !== "number" || protocol === PROTOCOL) return false;
  const key = "cambio:reloaded-for";
  try {
    if (sessionStorage.getItem(key) === String(protocol)) return false;
    sessionStorage.setItem(key, String(protocol));
  } catch { return false; }
  const sw = navigator.serviceWorker;
  const update = sw ? sw.getRegistration().then((r) => r && r.update()).catch(() => {}) : Promise.resolve();
  update.finally(() => location.reload());
  return true;
}

/**
 * The page's handlers: welcome(msg), state(msg), update(msg), table(msg), error(msg),
 * status(text, info) with "connecting" | "open" | "offline" | "gone" (info: {attempt} or,
 * offline, {code, next (ms epoch), attempt}), tokenRefused(msg), and any newer message's
 * type (hint, clock, chat, ...).
 * @typedef {Record<string, ((msg: any, info?: any) => void) | undefined>} Handlers
 */

/**
 * The round trip of the connection's pings, which its next ping reports: the server judges a
 * snap race by each player's reaction time, clamped by what that player's link allows.
 */
export class RoundTrip {
  constructor() {
    /** @type {number | null} milliseconds, from the last answered ping */
    this.ms = null;
    /** @type {number | null} */
    this.sentAt = null;
  }

  /** The ping to send now, with the last round trip measured. */
  ping() {
    this.sentAt = performance.now();
    /** @type {import('./protocol_types.js').Ping} */
    const msg = { type: "ping" };
    if (this.ms !== null) msg.rtt_ms = this.ms;
    return msg;
  }

  /** A pong came. True when it gave the connection's first round trip (worth reporting at
   * once, before the next race, rather than at the next keep-alive ping). */
  pong() {
    if (this.sentAt === null) return false;
    const first = this.ms === null;
    this.ms = Math.max(0, Math.round(performance.now() - this.sentAt));
    this.sentAt = null;
    return first;
  }
}

export class TableConnection {
  /**
   * @param {string} table  table id
   * @param {string|null} token  seat token, or null for a spectator
   * @param {Handlers} on
   */
  constructor(table, token, on) {
    this.table = table;
    this.token = token;
    this.on = on;
    /** @type {number | null} */
    this.version = null;   // last version applied in the current round
    /** @type {number | null} */
    this.gameNo = null;    // which game of the table, and which round of it, that version is in
    /** @type {number | null} */
    this.round = null;
    this.welcomed = false;
    /** @type {WebSocket | null} */
    this.ws = null;
    this.attempt = 0;
    this.refs = 0;
    this.closedByUs = false;
    this.lastHeard = 0;
    this.roundTrip = new RoundTrip();
    /** @type {ReturnType<typeof setInterval> | undefined} */
    this.timer = undefined;
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    this.retryTimer = undefined;
    this.nextTry = 0;
    /** @type {number | null} */
    this.seat = null;
    window.addEventListener("online", () => this.wake());
    document.addEventListener("visibilitychange", () => {
      if (document.visibilityState === "visible") this.wake();
    });
  }

  /** @param {string} text @param {object} [info] */
  status(text, info) {
    const say = this.on.status;
    if (say) say(text, info);
  }

  url() {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    const q = this.token ? `?token=${encodeURIComponent(this.token)}` : "";
    return `${proto}//${location.host}/ws/${encodeURIComponent(this.table)}${q}`;
  }

  connect() {
    this.closedByUs = false;
    clearTimeout(this.retryTimer);
    this.status("connecting", { attempt: this.attempt });
    let ws;
    try {
      ws = new WebSocket(this.url());
    } catch {
      this.scheduleRetry();
      return;
    }
    this.ws = ws;
    ws.onopen = () => {
      this.attempt = 0;
      this.welcomed = false;
      this.lastHeard = Date.now();
      this.startKeepAlive();
      this.send(this.roundTrip.ping());
    };
    ws.onmessage = (ev) => {
      this.lastHeard = Date.now();
      let msg;
      try { msg = JSON.parse(ev.data); } catch { return; }
      if (msg && typeof msg === "object") this.receive(msg);
    };
    ws.onclose = (ev) => {
      if (this.ws !== ws) return;
      this.ws = null;
      this.stopKeepAlive();
      if (this.closedByUs) return;
      this.scheduleRetry();
      // Say what happened and when the next try is: 9 s of a bare "reconnecting…" after a
      // server restart looked like a hang.
      this.status("offline", { code: ev.code, next: this.nextTry, attempt: this.attempt });
    };
    ws.onerror = () => { /* onclose follows */ };
  }

  /** Reconnect now if the socket is down (tab visible again, network back). */
  wake() {
    if (this.closedByUs) return;
    if (!this.ws) {
      this.attempt = 0;
      this.connect();
    } else if (Date.now() - this.lastHeard > SILENCE_MS) {
      this.ws.close();
    }
  }

  scheduleRetry() {
    clearTimeout(this.retryTimer);
    const base = BACKOFF_MS[Math.min(this.attempt, BACKOFF_MS.length - 1)];
    this.attempt += 1;
    const delay = base * (0.75 + Math.random() * 0.5);
    this.nextTry = Date.now() + delay;     // the page shows the countdown to it
    this.retryTimer = setTimeout(() => this.connect(), delay);
  }

  startKeepAlive() {
    this.stopKeepAlive();
    this.timer = setInterval(() => {
      if (!this.ws) return;
      if (Date.now() - this.lastHeard > SILENCE_MS) {
        this.ws.close();   // a silent connection is a dead one: reconnect
        return;
      }
      this.send(this.roundTrip.ping());
    }, PING_EVERY_MS);
  }

  stopKeepAlive() {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  close() {
    this.closedByUs = true;
    clearTimeout(this.retryTimer);
    this.stopKeepAlive();
    if (this.ws) this.ws.close();
    this.ws = null;
  }

  /** Drop the connection and reconnect (after a token change, for instance).
   * @param {string | null} [token] */
  restart(token) {
    if (token !== undefined) this.token = token;
    this.close();
    this.attempt = 0;
    this.connect();
  }

  get open() {
    return !!this.ws && this.ws.readyState === WebSocket.OPEN;
  }

  /** @param {object} msg */
  send(msg) {
    if (!this.ws || !this.open) return false;
    this.ws.send(JSON.stringify(msg));
    return true;
  }

  /**
   * Send an action (text from view.legal) at the version we have; `extra` adds fields (a
   * snap's reaction_ms). Returns its ref, or null when not connected.
   * @param {string} action @param {import("./messages.js").ActExtra} [extra]
   */
  act(action, extra) {
    const ref = `a${++this.refs}`;
    const ok = this.send({ ...extra, type: "act", action, version: this.version ?? 0, ref });
    return ok ? ref : null;
  }

  /** Assist mode: ask for the hard bot's suggestion for our seat (answered by a "hint"). */
  hint() {
    return this.send({ type: "hint", ref: `h${++this.refs}` });
  }

  /** @param {{ game_no?: number | null, round?: number | null }} msg */
  sameRound(msg) {
    const g = msg.game_no ?? null;
    const r = msg.round ?? null;
    return (g === null || g === this.gameNo) && (r === null || r === this.round);
  }

  /** "I have everything up to my version of this round": the server sends the rest. */
  sync() {
    /** @type {{ type: string, since: number, game_no?: number, round?: number }} */
    const msg = { type: "sync", since: this.version ?? 0 };
    if (this.gameNo !== null) msg.game_no = this.gameNo;
    if (this.round !== null) msg.round = this.round;
    this.send(msg);
  }

  /** A message from the server. @param {any} msg */
  receive(msg) {
    const on = /** @type {Record<string, (msg: any, info?: any) => void>} */ (this.on);
    switch (msg.type) {
      case "welcome":
        if (outdated(msg.protocol)) return;
        this.seat = msg.seat ?? null;
        on.welcome(msg);
        on.status("open");
        // Tell the server what we have; it answers with what we missed (or a full state).
        this.welcomed = true;
        if (this.version !== null) this.sync();
        break;
      case "state":
        this.version = msg.version;
        this.gameNo = msg.game_no ?? null;
        this.round = msg.round ?? null;
        on.state(msg);
        break;
      case "update":
        if (this.version === null) return;          // no base state yet: wait for it
        if (!this.sameRound(msg)) {                 // another round: only a full state will do
          this.sync();
          return;
        }
        if (msg.version <= this.version) return;    // already applied
        if (msg.version !== this.version + 1) {     // a gap: ask for the rest
          this.sync();
          return;
        }
        this.version = msg.version;
        on.update(msg);
        break;
      case "table":
        on.table(msg);
        break;
      case "error":
        if (!this.welcomed && msg.code === "not_found") {
          this.close();                             // no such table: stop trying
          on.status("gone");
          on.error(msg);
          return;
        }
        if (msg.code === "invalid_token" && this.token) {
          // The server says our token is not a seat here (any more): come back as a
          // spectator. This is the only answer that makes us forget a token: a full
          // table, a busy server or a dropped connection before the welcome must not.
          on.tokenRefused(msg);
          return;
        }
        if (msg.code === "stale") this.sync();
        on.error(msg);
        break;
      case "hint":
        if (this.on.hint) on.hint(msg);
        break;
      case "pong":
        if (this.roundTrip.pong()) this.send(this.roundTrip.ping());
        break;
      default:
        // Newer messages (clock, chat) go to their own handlers, if the page has one.
        if (typeof this.on[msg.type] === "function") on[msg.type](msg);
        break;
    }
  }
}
