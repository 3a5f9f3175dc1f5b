// The offline engine: a module worker that runs the project's own Python in Pyodide.
//
// It plays the part of the server for a solo table: the page (local.js) posts it the
// messages a WebSocket would carry (`act`, `sync`, `hint`, `ping`) and gets back the
// messages a server table sends (`welcome`, `state`, `update`, `table`, `error`), made by
// cambio.server.solo.SoloTable -- the server's own card session and quick bots. Bots' timers
// run here, as the table asks for them.
//
// Page -> worker: {op: "load", config, base}, {op: "new", settings}, {op: "send", msg},
// {op: "record"}. Worker -> page: {op: "ready", ms}, {op: "failed", message},
// {op: "messages", messages}, {op: "record", text}.

/**
 * cambio.server.solo.SoloTable through Pyodide's proxy: each call answers JSON text,
 * `{messages, timers: [{id, delay}]}` (deliver), or the record's or frames' text.
 * @typedef {object} SoloTableProxy
 * @property {() => string} welcome
 * @property {(action: string, version: number, ref: unknown) => string} act
 * @property {() => string} sync
 * @property {(ref: unknown) => string} hint
 * @property {(id: number) => string} fire
 * @property {() => string} record
 * @property {() => string} frames
 * @property {() => void} destroy
 */
/** @typedef {{ SoloTable: (settings: string) => SoloTableProxy }} SoloModule */
/** Where the page says Pyodide and the Python bundle are (server/offline.py).
 * @typedef {{ pyodide: string, bundle: string }} EngineConfig */

/** @type {any} Pyodide's interpreter (its own types are not installed) */
let py = null;
/** @type {SoloModule | null} */
let solo = null;
/** @type {SoloTableProxy | null} */
let table = null;
let generation = 0;   // a new table makes the old table's timers stale

/** @param {EngineConfig} config @param {string} base */
async function load(config, base) {
  const t0 = performance.now();
  const indexURL = new URL(config.pyodide, base).href;
  const { loadPyodide } = await import(`${indexURL}pyodide.mjs`);
  // No packages from Pyodide's repository: the bots need only the standard library.
  py = await loadPyodide({ indexURL, packages: [] });
  const res = await fetch(new URL(config.bundle, base).href);
  if (!res.ok) throw new Error(`the Python bundle answered ${res.status}`);
  py.unpackArchive(await res.arrayBuffer(), "zip", { extractDir: "/home/pyodide/cambio-lib" });
  py.runPython("import sys; sys.path.insert(0, '/home/pyodide/cambio-lib')");
  solo = py.pyimport("cambio.server.solo");
  return Math.round(performance.now() - t0);
}

/** Post a SoloTable answer's messages and arm the timers it asks for. @param {string} text */
function deliver(text) {
  /** @type {{ messages: object[], timers: { id: number, delay: number }[] }} */
  const out = JSON.parse(text);
  if (out.messages.length) self.postMessage({ op: "messages", messages: out.messages });
  const mine = generation;
  for (const timer of out.timers) {
    setTimeout(() => {
      if (mine !== generation || !table) return;
      try {
        deliver(table.fire(timer.id));
      } catch (err) {
        self.postMessage({ op: "failed", message: failure(err) });
      }
    }, timer.delay * 1000);
  }
}

/** What went wrong, in words. @param {unknown} err */
function failure(err) {
  return String((err instanceof Error && err.message) || err);
}

/** @param {{ type: string, ref?: unknown, action?: string, version?: number }} msg */
function send(msg) {
  if (!table) return;
  const ref = msg.ref === undefined ? null : msg.ref;
  switch (msg.type) {
    case "act": deliver(table.act(String(msg.action), Number(msg.version), ref)); break;
    case "sync": deliver(table.sync()); break;
    case "hint": deliver(table.hint(ref)); break;
    case "ping": self.postMessage({ op: "messages", messages: [{ type: "pong" }] }); break;
    default:
      self.postMessage({ op: "messages", messages: [{
        type: "error", code: "bad_message", message: `unknown message type ${msg.type}`, ref,
      }] });
  }
}

self.onmessage = async (/** @type {MessageEvent} */ ev) => {
  const data = ev.data || {};
  try {
    if (data.op === "load") {
      const ms = await load(data.config, data.base);
      self.postMessage({ op: "ready", ms });
    } else if (data.op === "new") {
      generation += 1;
      if (table) table.destroy();
      if (!solo) throw new Error("the engine is not loaded");
      table = solo.SoloTable(JSON.stringify(data.settings));
      deliver(table.welcome());
    } else if (data.op === "send") {
      send(data.msg);
    } else if (data.op === "record") {
      self.postMessage({ op: "record", text: table ? table.record() : "" });
    } else if (data.op === "frames") {
      self.postMessage({ op: "frames", text: table ? table.frames() : "" });
    }
  } catch (err) {
    self.postMessage({ op: "failed", message: failure(err) });
  }
};

// A module worker (local.js starts it with type "module"); its typedefs are local.js's too.
export {};
