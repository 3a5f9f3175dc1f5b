"""The routes of the installable, offline client (:mod:`.offline` has what they serve).

``/manifest.json`` and ``/sw.js`` (at the root, so that the worker's scope is the whole
site), ``/solo`` (the solo lobby, also the page an offline navigation lands on), and under
``/static/offline/``: the engine's settings, the Python bundle and Pyodide's files (from the
cache :func:`.offline.fetch_pyodide` fills; gzipped when the browser takes it)."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Route

from . import offline

NO_CACHE = {"Cache-Control": "no-cache"}
"""Pages and names that change with a release: asked again each time (the service worker
is what keeps them offline)."""
IMMUTABLE = {"Cache-Control": "public, max-age=31536000, immutable"}
"""Pyodide's files: their address has their version in it."""
MEDIA = {".mjs": "text/javascript", ".wasm": "application/wasm", ".zip": "application/zip",
         ".json": "application/json"}


async def solo_page(request: Request) -> Response:
    return FileResponse(offline.WEB / offline.SOLO_PAGE, media_type="text/html",
                        headers=NO_CACHE)


async def manifest(request: Request) -> Response:
    return FileResponse(offline.WEB / "manifest.json", media_type="application/manifest+json",
                        headers=NO_CACHE)


async def service_worker(request: Request) -> Response:
    text = offline.service_worker([offline.SOLO_PAGE_ROUTE], offline.SOLO_PAGE_ROUTE)
    return Response(text, media_type="text/javascript", headers=NO_CACHE)


async def engine(request: Request) -> Response:
    # The server is the multiplayer lobby: the solo page links back to it.
    return JSONResponse(offline.engine_config(server="./"), headers=NO_CACHE)


async def bundle(request: Request) -> Response:
    return Response(offline.python_bundle(), media_type="application/zip", headers=NO_CACHE)


async def pyodide_file(request: Request) -> Response:
    name = request.path_params["name"]
    folder = offline.pyodide_dir()
    if request.path_params["version"] != offline.PYODIDE_VERSION \
            or name not in offline.PYODIDE_FILES or folder is None:
        return JSONResponse({"error": {"code": "not_found", "message": "no such file"}},
                            status_code=404)
    media = MEDIA[name[name.rindex("."):]]
    packed = folder / f"{name}.gz"
    if "gzip" in request.headers.get("accept-encoding", "") and packed.is_file():
        return FileResponse(packed, media_type=media, headers={
            **IMMUTABLE, "Content-Encoding": "gzip", "Vary": "Accept-Encoding"})
    return FileResponse(folder / name, media_type=media,
                        headers={**IMMUTABLE, "Vary": "Accept-Encoding"})


ROUTES = [
    Route("/solo", solo_page),
    Route("/manifest.json", manifest),
    Route("/sw.js", service_worker),
    Route("/" + offline.ENGINE_PATH, engine),
    Route("/" + offline.BUNDLE_PATH, bundle),
    Route("/static/offline/pyodide/{version}/{name}", pyodide_file),
]
"""Placed before the ``/static`` mount."""

__all__ = ["ROUTES"]
