// A solo table's connection: the TableConnection of conn.js (versions, gaps, `sync`), with
// the offline engine (engine.js, Python in a worker) in place of the WebSocket. The engine
// speaks the server's messages, so the table's modules cannot tell the difference.
import { TableConnection } from "../conn.js";

/**
 * What the engine worker posts (engine.js): `ready`, `failed`, `messages`, `record`, `frames`.
 * @typedef {{ op: string, ms?: number, message?: string, messages?: object[], text?: string }} EngineReport
 */
/** @typedef {(data: EngineReport) => void} EngineListener */
/**
 * A solo table's settings, as the solo page chose them (server/solo.py reads them).
 * @typedef {{ seed: number, name?: string, bots?: unknown[], rules?: unknown, speed?: unknown }} SoloSettings
 */

/** The worker running Pyodide and the solo table; loads once per page, in the background. */
export class Engine {
  /** @param {import("./engine.js").EngineConfig} config @param {string} base */
  constructor(config, base) {
    this.config = config;
    /** @type {Set<EngineListener>} */
    this.listeners = new Set();
    this.loaded = false;
    this.worker = new Worker(new URL("./engine.js", import.meta.url), { type: "module" });
    /** @type {Promise<number>} milliseconds the engine took to load */
    this.ready = new Promise((resolve, reject) => {
      this.worker.onmessage = (ev) => {
        /** @type {EngineReport} */
        const data = ev.data || {};
        if (data.op === "ready") resolve(data.ms ?? 0);
        else if (data.op === "failed" && !this.loaded) reject(new Error(data.message));
        for (const fn of this.listeners) fn(data);
      };
      this.worker.onerror = (ev) => reject(new Error(ev.message || "the engine did not start"));
    });
    this.ready.then(() => { this.loaded = true; }, () => {});
    this.worker.postMessage({ op: "load", config, base });
  }

  /** @param {object} data */
  post(data) { this.worker.postMessage(data); }

  /** @param {EngineListener} fn */
  listen(fn) {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  /** The finished round's record (NDJSON text), or the player's-eye record before. */
  record() { return this.ask("record"); }

  /** The round's replay frames (JSON text), as the engine plays the record. */
  frames() { return this.ask("frames"); }

  /** @param {string} op @returns {Promise<string>} */
  ask(op) {
    return new Promise((resolve) => {
      const stop = this.listen((data) => {
        if (data.op === op) { stop(); resolve(data.text || ""); }
      });
      this.post({ op });
    });
  }
}

export class LocalConnection extends TableConnection {
  /**
   * @param {Engine} engine  the loaded engine
   * @param {SoloSettings} settings  the solo table
   * @param {import("../conn.js").Handlers} on  the handlers of TableConnection, plus failed(message)
   */
  constructor(engine, settings, on) {
    super(`solo-${settings.seed}`, null, on);
    this.engine = engine;
    this.settings = settings;
    this.running = false;
    /** @type {(() => void) | null} */
    this.stop = null;
  }

  /** @override */
  connect() {
    this.close();
    this.closedByUs = false;
    this.status("connecting", { attempt: 0 });
    this.stop = this.engine.listen((data) => {
      if (data.op === "messages") for (const msg of data.messages || []) this.receive(msg);
      else if (data.op === "failed" && this.on.failed) this.on.failed(data.message);
    });
    this.running = true;
    this.engine.post({ op: "new", settings: this.settings });
  }

  /** @override */
  wake() { /* nothing to reconnect to */ }

  /** @override */
  close() {
    this.closedByUs = true;
    this.running = false;
    if (this.stop) this.stop();
    this.stop = null;
  }

  /** @override */
  get open() { return this.running; }

  /** @param {object} msg @override */
  send(msg) {
    if (!this.running) return false;
    this.engine.post({ op: "send", msg });
    return true;
  }
}
