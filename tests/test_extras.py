"""A feature whose extra is not installed says which extra to install, in one line.

A missing package is made real for the test by ``sys.modules[name] = None`` (Python's own
way to make ``import name`` fail with ModuleNotFoundError); the wheel smoke test
(tests/packaging) sees the same message from a venv that really lacks psycopg.
"""

from __future__ import annotations

import subprocess
import sys

import pytest

from cambio.extras import EXTRAS, MissingExtra, needs
from cambio.server.store import open_store


def test_a_missing_module_of_the_extra_names_the_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "psycopg", None)
    monkeypatch.delitem(sys.modules, "cambio.server.store.postgres", raising=False)
    with pytest.raises(MissingExtra) as caught:
        open_store("postgresql://nobody@127.0.0.1/x")
    assert str(caught.value) == ("a PostgreSQL --database needs the 'postgres' extra (psycopg "
                                 "is not installed): pip install 'cambio[postgres]'")
    assert isinstance(caught.value, ImportError)  # `except ImportError` still catches it


def test_a_missing_module_of_nothing_the_extra_brings_stays_its_own_error(monkeypatch):
    monkeypatch.setitem(sys.modules, "no_such_module_here", None)
    with pytest.raises(ModuleNotFoundError) as caught, needs("postgres", "x"):
        import no_such_module_here  # type: ignore[import-not-found]  # noqa: F401
    assert not isinstance(caught.value, MissingExtra)


def test_every_extra_of_the_helper_is_an_extra_of_the_package():
    import tomllib
    from pathlib import Path

    project = tomllib.loads((Path(__file__).parents[1] / "pyproject.toml").read_text())
    assert set(EXTRAS) <= set(project["project"]["optional-dependencies"])


@pytest.mark.parametrize("argv,blocked,extra", [
    (["serve", "--database", "postgresql://nobody@127.0.0.1/x"], "psycopg", "postgres"),
    (["serve", "--redis", "redis://127.0.0.1:1/0"], "redis", "cluster"),
    # Before the games, not after them.
    (["tournament", "cards", "--bots", "random,memory", "--games", "2", "--plot", "t.png"],
     "matplotlib", "research"),
    (["sim", "cards", "--games", "2", "--ray", "local", "--no-progress"], "ray", "research"),
    # A saved policy seated by name (any existing file: the extra is asked for first).
    (["sim", "cards", "-p", "2", "--bots", f"sb3:{__file__},random", "--games", "2"],
     "sb3_contrib", "train"),
    (["tournament", "cards", "--bots", f"sb3:{__file__},random", "--games", "2"],
     "sb3_contrib", "train"),
])
def test_the_command_prints_one_line_and_exits_1(argv, blocked, extra):
    code = (f"import sys; sys.modules[{blocked!r}] = None; sys.argv = ['cambio', *{argv!r}];"
            " from cambio.cli.main import main; main()")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 1
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and f"pip install 'cambio[{extra}]'" in lines[0], done.stderr
