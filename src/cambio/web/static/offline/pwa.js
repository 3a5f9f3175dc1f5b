// The app's service worker (sw.js, beside the pages), registered by the lobby and the solo
// page as soon as this module loads. `controlled` resolves to the worker controlling the
// page once it does, or null where there is none (no service workers, an insecure origin,
// a refusal).
function register() {
  const sw = navigator.serviceWorker;
  if (!sw || !window.isSecureContext) return Promise.resolve(null);
  return sw.register(new URL("../../sw.js", import.meta.url))
    .then(() => sw.controller || new Promise((resolve) => {
      sw.addEventListener("controllerchange", () => resolve(sw.controller), { once: true });
    }))
    .catch(() => null);
}

export const controlled = register();
