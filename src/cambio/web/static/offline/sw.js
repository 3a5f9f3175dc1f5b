// The service worker: the client's files kept for offline use, in a cache named after this
// build (the server and `cambio build-web` write the names below). A release is another
// build, so another sw.js: the browser installs it, it takes over at once and drops the
// old cache. Pyodide (13 MB) has a cache of its own per Pyodide version, kept across
// releases. Live traffic (the REST API, WebSockets) is never answered from a cache.
// The worker's own scope (tsc: jsconfig.sw.json, with the WebWorker types).
const sw = /** @type {ServiceWorkerGlobalScope} */ (/** @type {unknown} */ (self));
const BUILD = __BUILD__;
const SHELL = __SHELL__;         // kept at install: pages, the client's files, the Python bundle
const FALLBACK = __FALLBACK__;   // the page an offline navigation lands on (the solo lobby)
const PYODIDE = __PYODIDE__;     // Pyodide's folder: kept as it is first loaded, or when asked
const PYODIDE_FILES = __PYODIDE_FILES__;
const SHELL_CACHE = `cambio-${BUILD}`;
const ENGINE_CACHE = `cambio-engine-${PYODIDE}`;
const LIVE = ["api/", "ws/"];
// From the network when there is one, else the copy kept last time (the rules' words:
// what a power card does, said at the table).
const FRESH = ["static/offline/engine.json", "api/rules"];

const scope = sw.registration.scope;
const abs = (/** @type {string} */ path) => new URL(path, scope).href;

sw.addEventListener("install", (event) => {
  event.waitUntil(caches.open(SHELL_CACHE)
    .then((cache) => cache.addAll(SHELL.map((p) => new Request(abs(p), { cache: "reload" }))))
    .then(() => sw.skipWaiting()));
});

sw.addEventListener("activate", (event) => {
  event.waitUntil(caches.keys()
    .then((keys) => Promise.all(keys
      .filter((k) => k.startsWith("cambio-") && k !== SHELL_CACHE && k !== ENGINE_CACHE)
      .map((k) => caches.delete(k))))
    .then(() => sw.clients.claim()));
});

/** @param {Request} request @param {string} name */
async function cacheFirst(request, name) {
  const cache = await caches.open(name);
  const hit = await cache.match(request, { ignoreSearch: true });
  if (hit) return hit;
  const res = await fetch(request);
  if (res.ok) cache.put(request, res.clone());
  return res;
}

/** @param {Request} request @param {string} name */
async function networkFirst(request, name) {
  try {
    const res = await fetch(request);
    if (res.ok) (await caches.open(name)).put(request, res.clone());
    return res;
  } catch (err) {
    const hit = await caches.match(request, { ignoreSearch: true });
    if (hit) return hit;
    throw err;
  }
}

/** A page: from the network; offline, the kept copy, else the solo lobby. @param {Request} request */
async function page(request) {
  try {
    return await fetch(request);
  } catch {
    const hit = await caches.match(request, { ignoreSearch: true });
    if (hit) return hit;
    const fallback = await caches.match(abs(FALLBACK));
    if (fallback) return Response.redirect(`${abs(FALLBACK)}?offline=1`, 302);
    return new Response("Offline, and this page was never loaded.", {
      status: 503, headers: { "Content-Type": "text/plain; charset=utf-8" },
    });
  }
}

/** Keep every file of the engine (Pyodide), for a page that will need them offline. */
async function keepEngine() {
  const cache = await caches.open(ENGINE_CACHE);
  for (const name of PYODIDE_FILES) {
    const url = abs(PYODIDE + name);
    if (!(await cache.match(url))) {
      const res = await fetch(url);
      if (!res.ok) return false;
      await cache.put(url, res);
    }
  }
  return true;
}

// {op: "keep-engine"} from a page (the installed app's lobby): answered {op: "engine-kept", ok}.
sw.addEventListener("message", (event) => {
  const data = event.data || {};
  if (data.op !== "keep-engine") return;
  event.waitUntil(keepEngine().catch(() => false).then((ok) => {
    if (event.source) event.source.postMessage({ op: "engine-kept", ok });
  }));
});

sw.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET" || !request.url.startsWith(scope)) return;
  const path = new URL(request.url).href.slice(scope.length).split("?")[0];
  if (FRESH.includes(path)) event.respondWith(networkFirst(request, SHELL_CACHE));
  else if (LIVE.some((p) => path.startsWith(p))) return;
  else if (request.mode === "navigate") event.respondWith(page(request));
  else if (path.startsWith(PYODIDE)) event.respondWith(cacheFirst(request, ENGINE_CACHE));
  else event.respondWith(cacheFirst(request, SHELL_CACHE));
});

// A your-move notification (yourgames.js) tapped: the table's page, in a window of the app
// that is open already if there is one.
self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = abs((event.notification.data && event.notification.data.url || "/").replace(/^\//, ""));
  event.waitUntil(self.clients.matchAll({ type: "window", includeUncontrolled: true }).then((wins) => {
    const win = wins[0];
    // navigate() works on a window this worker controls; any other gets a window of its own.
    const there = win ? win.navigate(url).then((w) => w && w.focus()) : Promise.reject(new Error());
    return there.catch(() => self.clients.openWindow(url));
  }));
});
