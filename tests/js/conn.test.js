// The table's connection: versions, gaps and resync, a round changing under a reconnect,
// the answers that stop or change it. The socket is a stand-in that records what is sent
// (the real one is the browser tests'); what is checked is the connection's own logic.
import "./dom.js";
import { test } from "node:test";
import assert from "node:assert/strict";
import { TableConnection } from "../../src/cambio/web/static/conn.js";

const g = /** @type {any} */ (globalThis);
g.WebSocket = { OPEN: 1 };

/** A connection whose socket is open and records what it sends, and the page's handlers. */
function connection(token = "tok") {
  /** @type {Record<string, any[]>} */
  const got = {};
  const record = (/** @type {string} */ name) => (/** @type {any} */ msg) => { (got[name] ||= []).push(msg); };
  const on = Object.fromEntries(["welcome", "state", "update", "table", "error", "status", "tokenRefused",
    "hint", "clock"].map((n) => [n, record(n)]));
  const conn = new TableConnection("t1", token, on);
  /** @type {any[]} */
  const sent = [];
  conn.ws = /** @type {any} */ ({ readyState: 1, send: (/** @type {string} */ s) => sent.push(JSON.parse(s)), close() {} });
  return { conn, got, sent };
}

const view = { phase: "turn_start", legal: [] };

test("updates apply in order; a duplicate is dropped; a gap asks for the rest", () => {
  const { conn, got, sent } = connection();
  conn.receive({ type: "update", version: 1, view });           // no base state yet
  assert.equal("update" in got, false);
  conn.receive({ type: "state", version: 4, view, game_no: 0, round: 1 });
  conn.receive({ type: "update", version: 5, view, game_no: 0, round: 1 });
  conn.receive({ type: "update", version: 5, view, game_no: 0, round: 1 });   // already applied
  assert.deepEqual(got.update.map((/** @type {{ version: number }} */ m) => m.version), [5]);
  conn.receive({ type: "update", version: 7, view, game_no: 0, round: 1 });   // 6 is missing
  assert.deepEqual(sent, [{ type: "sync", since: 5, game_no: 0, round: 1 }]);
  assert.equal(conn.version, 5);
});

test("an update of another round asks for a full state", () => {
  const { conn, got, sent } = connection();
  conn.receive({ type: "state", version: 9, view, game_no: 0, round: 1 });
  conn.receive({ type: "update", version: 1, view, game_no: 0, round: 2 });
  assert.equal(got.update, undefined);
  assert.deepEqual(sent, [{ type: "sync", since: 9, game_no: 0, round: 1 }]);
});

test("back after a drop, the welcome says what we have; a first welcome asks nothing", () => {
  const first = connection();
  first.conn.receive({ type: "welcome", seat: 0, protocol: 2 });
  assert.deepEqual(first.sent, []);
  assert.equal(first.conn.seat, 0);
  assert.deepEqual(first.got.status, ["open"]);
  const back = connection();
  back.conn.receive({ type: "state", version: 3, view });
  back.conn.receive({ type: "welcome", seat: 1, protocol: 2 });
  assert.deepEqual(back.sent, [{ type: "sync", since: 3 }]);
});

test("a stale action resyncs; a refused token makes us a spectator; no such table stops", () => {
  const { conn, got, sent } = connection();
  conn.receive({ type: "state", version: 2, view });
  conn.receive({ type: "error", code: "stale", ref: "a1" });
  assert.deepEqual(sent, [{ type: "sync", since: 2 }]);
  assert.equal(got.error.length, 1);
  conn.receive({ type: "error", code: "invalid_token" });
  assert.equal(got.tokenRefused.length, 1);
  const gone = connection();
  gone.conn.receive({ type: "error", code: "not_found" });
  assert.deepEqual(gone.got.status, ["gone"]);
  assert.equal(gone.conn.ws, null);
  assert.equal(gone.conn.closedByUs, true);
});

test("an action goes at our version with a fresh ref, a snap with its reaction time; closed, nothing goes", () => {
  const { conn, sent } = connection();
  conn.receive({ type: "state", version: 6, view });
  assert.equal(conn.act("draw"), "a1");
  assert.equal(conn.act("snap 1.2", { reaction_ms: 840 }), "a2");
  assert.deepEqual(sent, [{ type: "act", action: "draw", version: 6, ref: "a1" },
    { reaction_ms: 840, type: "act", action: "snap 1.2", version: 6, ref: "a2" }]);
  conn.ws = null;
  assert.equal(conn.act("draw"), null);
});

test("hints, tables and newer messages reach their handlers; pongs nothing", () => {
  const { conn, got } = connection();
  conn.receive({ type: "hint", action: "draw" });
  conn.receive({ type: "table", table: {} });
  conn.receive({ type: "clock", seat: 0 });
  conn.receive({ type: "pong" });
  conn.receive({ type: "unknown" });
  assert.deepEqual([got.hint.length, got.table.length, got.clock.length], [1, 1, 1]);
});

test("pings report the last round trip; the first one measured is reported at once", () => {
  const { conn, sent } = connection();
  conn.send(conn.roundTrip.ping());
  assert.deepEqual(sent, [{ type: "ping" }]);                  // nothing measured yet
  conn.roundTrip.sentAt = performance.now() - 120;             // as if sent 120 ms ago
  conn.receive({ type: "pong" });
  assert.equal(sent.length, 2, "the first round trip goes out with a ping at once");
  const report = /** @type {any} */ (sent[1]);
  assert.equal(report.type, "ping");
  assert.ok(report.rtt_ms >= 120 && report.rtt_ms < 1000, String(report.rtt_ms));
  conn.receive({ type: "pong" });                              // the answer to that ping
  assert.equal(sent.length, 2, "later round trips wait for the keep-alive ping");
  conn.receive({ type: "pong" });                              // a pong nobody asked for
  assert.equal(conn.roundTrip.pong(), false);
});
