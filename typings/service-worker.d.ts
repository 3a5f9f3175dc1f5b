// The names the server writes into the service worker's template (server/offline.py,
// `service_worker`): JSON values, declared here so that tsc checks sw.js as it is served.
declare const __BUILD__: string;
declare const __SHELL__: string[];
declare const __FALLBACK__: string;
declare const __PYODIDE__: string;
declare const __PYODIDE_FILES__: string[];
