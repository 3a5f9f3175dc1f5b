"""The server is built by composition: no class in ``cambio.server`` stands on more than
one class of the project (the table was once a chain of eleven, each layer
reading every field and lower layers calling upward through ``NotImplementedError``)."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
from collections.abc import Iterator
from pathlib import Path

import cambio.server


def classes(cls: type) -> Iterator[type]:
    yield cls
    for _, inner in inspect.getmembers(cls, inspect.isclass):
        if inner.__module__ == cls.__module__ and inner.__qualname__.startswith(
                cls.__qualname__ + "."):
            yield from classes(inner)


def server_classes() -> list[type]:
    out: list[type] = []
    for info in pkgutil.walk_packages(cambio.server.__path__, "cambio.server."):
        module = importlib.import_module(info.name)
        for _, cls in inspect.getmembers(module, inspect.isclass):
            if cls.__module__ == module.__name__:
                out.extend(classes(cls))
    return out


def project_bases(cls: type) -> list[str]:
    return [f"{c.__module__}.{c.__qualname__}" for c in cls.__mro__[1:]
            if c.__module__.split(".")[0] == "cambio"]


def test_the_walk_finds_the_servers_classes() -> None:
    names = {c.__qualname__ for c in server_classes()}
    assert {"Table", "Seats", "BotTimers", "Lifecycle", "SqliteStore", "ClusterServer"} <= names


def test_no_server_class_has_more_than_one_project_base() -> None:
    deep = {f"{c.__module__}.{c.__qualname__}": project_bases(c) for c in server_classes()
            if len(project_bases(c)) > 1}
    assert deep == {}


def test_the_table_calls_nothing_upward_through_stubs() -> None:
    folder = Path(cambio.server.__file__).parent / "table"
    stubs = [p.name for p in folder.glob("*.py") if "NotImplementedError" in p.read_text()]
    assert stubs == []
