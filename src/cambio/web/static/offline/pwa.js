// The app's service worker (sw.js, beside the pages), registered by the lobby and the solo
// page as soon as this module loads. `controlled` resolves to the worker controlling the
// page once it does, or null where there is none (no service workers, an insecure origin,
// a refusal).
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
    .then(() => sw.controller || new Promise((resolve) => {
      sw.addEventListener("controllerchange", () => resolve(sw.controller), { once: true });
    }))
    .catch(() => null);
}

export const controlled = register();
