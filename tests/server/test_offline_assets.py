"""What the server and ``cambio build-web`` hand the offline client: the routes of
``cambio.server.offline_routes`` (the server's own app, called in process through httpx's
ASGI transport), the static build's folder, and Pyodide's pinned hash refusing a tarball
that is not the one."""

from __future__ import annotations

import asyncio
import io
import json
import subprocess
import sys
import tarfile
from pathlib import Path

import httpx
import pytest

from cambio.server import create_app, offline


class Client:
    """GET requests to the server's app, in this process (its lifespan is not run: these
    routes need no tables)."""

    def __init__(self) -> None:
        self.app = create_app()

    def get(self, path: str, headers: dict[str, str] | None = None) -> httpx.Response:
        async def call() -> httpx.Response:
            transport = httpx.ASGITransport(app=self.app)
            async with httpx.AsyncClient(transport=transport, base_url="http://test") as c:
                return await c.get(path, headers=headers)

        return asyncio.run(call())


@pytest.fixture(scope="module")
def pyodide() -> Path:
    return offline.fetch_pyodide(quiet=True)


@pytest.fixture(scope="module")
def client(pyodide: Path) -> Client:
    return Client()


def test_manifest_worker_and_solo_page(client: Client) -> None:
    manifest = client.get("/manifest.json")
    assert manifest.headers["content-type"].startswith("application/manifest+json")
    data = manifest.json()
    assert data["display"] == "standalone" and data["start_url"] == "./"
    for icon in data["icons"]:
        assert (offline.WEB / icon["src"]).is_file()
    sw = client.get("/sw.js")
    assert sw.headers["content-type"].startswith("text/javascript")
    assert sw.headers["cache-control"] == "no-cache"
    assert json.dumps(offline.build_id()) in sw.text
    assert not [w for w in ("__BUILD__", "__SHELL__", "__FALLBACK__", "__PYODIDE__",
                            "__PYODIDE_FILES__") if w in sw.text]
    shell = json.loads(sw.text.split("const SHELL = ", 1)[1].split(";", 1)[0])
    for path in shell:   # every file the worker keeps at install is there
        if not path.startswith("static/offline/pyodide"):
            assert client.get("/" + path).status_code == 200, path
    assert "solo" in shell and "static/offline/python.zip" in shell
    assert client.get("/solo").headers["content-type"].startswith("text/html")


def test_engine_settings_and_bundle(client: Client) -> None:
    engine = client.get("/static/offline/engine.json").json()
    assert engine["available"] is True and engine["server"] == "./"
    assert engine["pyodide"] == f"static/offline/pyodide/{offline.PYODIDE_VERSION}/"
    assert client.get("/static/offline/python.zip").content == offline.python_bundle()


def test_pyodide_files_gzipped_when_taken(client: Client, pyodide: Path) -> None:
    base = f"/static/offline/pyodide/{offline.PYODIDE_VERSION}"
    packed = client.get(f"{base}/pyodide.asm.wasm", headers={"Accept-Encoding": "gzip"})
    assert packed.headers["content-type"] == "application/wasm"
    assert packed.headers["content-encoding"] == "gzip"
    assert "immutable" in packed.headers["cache-control"]
    assert packed.content == (pyodide / "pyodide.asm.wasm").read_bytes()   # decoded
    plain = client.get(f"{base}/python_stdlib.zip", headers={"Accept-Encoding": "gzip"})
    assert "content-encoding" not in plain.headers   # a zip does not shrink: sent as it is
    for bad in (f"{base}/package.json", "/static/offline/pyodide/0.0.1/pyodide.mjs",
                f"{base}/pyodide.asm.wasm.gz"):
        assert client.get(bad).status_code == 404, bad


def test_client_files_gzipped_when_taken() -> None:
    """The client's modules are sent gzipped to a browser that takes it (they carry their
    comments and JSDoc types: there is no build to strip them), as they are to one that
    does not."""
    source = (offline.STATIC / "cards" / "controller.js").read_bytes()
    packed = Client().get("/static/cards/controller.js", headers={"Accept-Encoding": "gzip"})
    assert packed.headers["content-encoding"] == "gzip"
    assert int(packed.headers["content-length"]) < len(source) / 2
    assert packed.content == source   # decoded
    plain = Client().get("/static/cards/controller.js", headers={"Accept-Encoding": "identity"})
    assert "content-encoding" not in plain.headers and plain.content == source


def test_static_build(tmp_path: Path, pyodide: Path) -> None:
    out = tmp_path / "site"
    done = subprocess.run([sys.executable, "-m", "cambio.cli.main", "build-web", str(out),
                           "--server", "https://cambio.example"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "python -m http.server" in done.stdout
    engine = json.loads((out / offline.ENGINE_PATH).read_text())
    assert engine["server"] == "https://cambio.example" and engine["available"] is True
    assert (out / offline.BUNDLE_PATH).read_bytes() == offline.python_bundle()
    for name in offline.PYODIDE_FILES:
        assert (out / offline.PYODIDE_PATH / name).read_bytes() == (pyodide / name).read_bytes()
    assert not list(out.rglob("*.gz"))
    sw = (out / "sw.js").read_text()
    assert json.dumps(offline.build_id()) in sw and '"index.html"' in sw
    index = (out / "index.html").read_text()
    assert 'href="/' not in index and 'src="/' not in index   # relative: any sub-path


@pytest.mark.parametrize("args", [["--server", "ftp://x"], ["--server", "cambio.example"]])
def test_static_build_refuses_a_bad_server_address(tmp_path: Path, args: list[str]) -> None:
    done = subprocess.run([sys.executable, "-m", "cambio.cli.main", "build-web",
                           str(tmp_path / "site"), *args],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "--server" in done.stderr
    assert not (tmp_path / "site").exists()


def test_a_tarball_that_is_not_the_pinned_one_is_refused(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The real check on a tarball that is not Pyodide's (the download itself replaced)."""
    def forged(into: Path) -> Path:
        tarball = into / "forged.tgz"
        with tarfile.open(tarball, "w:gz") as tar:
            for name in offline.PYODIDE_FILES:
                info = tarfile.TarInfo(f"package/{name}")
                info.size = 4
                tar.addfile(info, io.BytesIO(b"evil"))
        return tarball

    monkeypatch.setenv("CAMBIO_PYODIDE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(offline, "_download", forged)
    with pytest.raises(offline.PyodideError, match="pinned hash"):
        offline.fetch_pyodide(quiet=True)
    assert offline.pyodide_dir() is None
    assert not (tmp_path / "cache" / "pyodide.mjs").exists()


def test_a_cache_that_cannot_be_written_is_a_clear_error(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, pyodide: Path) -> None:
    """The real tarball (from npm's cache of this machine), a cache folder under a file."""
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    monkeypatch.setenv("CAMBIO_PYODIDE_DIR", str(blocker / "pyodide"))
    with pytest.raises(offline.PyodideError, match="CAMBIO_PYODIDE_DIR"):
        offline.fetch_pyodide(quiet=True)
