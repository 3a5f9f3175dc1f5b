// The app's service worker (sw.js, beside the pages), registered by the lobby and the solo
// page as soon as this module loads. `controlled` resolves to the worker controlling the
// page once it does, or null where there is none (no service workers, an insecure origin,
// a refusal).
/** @returns {Promise<ServiceWorker | null>} */
function register() {
  const sw = navigator.serviceWorker;
  if (!sw || !window.isSecureContext) return Promise.resolve(null);
  const registered = sw.register(new URL("../../sw.js", import.meta.url));
  // Already controlled (a later visit): go on at once; offline, registering (which asks
  // the network for a newer sw.js) may take long to give up.
  if (sw.controller) {
    registered.catch(() => {});
    return Promise.resolve(sw.controller);
  }
  return registered
    .then(() => sw.controller || new Promise((/** @type {(w: ServiceWorker | null) => void} */ resolve) => {
      sw.addEventListener("controllerchange", () => resolve(sw.controller), { once: true });
    }))
    .catch(() => null);
}

export const controlled = register();

/**
 * Ask the worker to keep the engine (Pyodide, 6.3 MB gzipped) now; resolves to whether every
 * file is kept. The installed app does it from the lobby (below), so that solo games work
 * offline even if /solo was never opened; a browser tab leaves it to the solo page.
 */
export function keepEngine() {
  /** @type {Promise<boolean>} */
  const kept = controlled.then((worker) => (worker ? new Promise((resolve) => {
    navigator.serviceWorker.addEventListener("message", function kept(ev) {
      if (ev.data && ev.data.op === "engine-kept") {
        navigator.serviceWorker.removeEventListener("message", kept);
        resolve(!!ev.data.ok);
      }
    });
    worker.postMessage({ op: "keep-engine" });
  }) : false));
  return kept;
}

/** The Network Information API, where the browser has it (Chromium): the data saver. */
const connection = /** @type {Navigator & { connection?: { saveData?: boolean } }} */ (navigator).connection;

if (matchMedia("(display-mode: standalone)").matches
    && !(connection && connection.saveData)) {
  keepEngine();
}
