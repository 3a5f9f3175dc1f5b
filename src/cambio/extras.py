"""The optional parts of cambio and the one-line message when one is missing.

The plain install plays and serves (SQLite). PostgreSQL, the cluster, the research adapters
and training come with extras (``pip install 'cambio[postgres]'``, docs/install.md), so a
researcher's environment or a small server does not carry what it never uses. Code that needs
an extra imports it inside :func:`needs`: a missing package then reads as which extra to
install, not as a traceback ending in ``No module named 'psycopg'``.
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Callable, Iterator

EXTRAS: dict[str, tuple[str, ...]] = {
    "postgres": ("psycopg",),
    "cluster": ("redis", "httpx", "psycopg"),
    "research": ("pettingzoo", "gymnasium", "pyspiel", "open_spiel", "ray", "matplotlib"),
    "train": ("stable_baselines3", "sb3_contrib", "torch", "gymnasium"),
}
"""Each extra of ``pyproject.toml`` and the top-level modules it brings that cambio imports."""


class MissingExtra(ImportError):
    """A feature was used whose extra is not installed; the message says what to install."""


class ServiceFailed(RuntimeError):
    """An outside service a command needs (a Ray instance) did not start or answer; the
    message says which and why, in one line."""


@contextlib.contextmanager
def needs(extra: str, feature: str) -> Iterator[None]:
    """Turn a missing module of ``extra`` imported in this block into :class:`MissingExtra`.

    Only the extra's own modules are translated: a missing module of anything else is a
    real bug and keeps its own error.
    """
    modules = EXTRAS[extra]
    try:
        yield
    except ModuleNotFoundError as exc:
        top = (exc.name or "").partition(".")[0]
        if top not in modules:
            raise
        raise MissingExtra(f"{feature} needs the '{extra}' extra ({top} is not installed): "
                           f"pip install 'cambio[{extra}]'") from None


def run_command(main: Callable[[], object], prog: str = "cambio") -> None:
    """Run a command line; a missing extra or a service that failed is one line on stderr
    and exit status 1."""
    try:
        main()
    except (MissingExtra, ServiceFailed) as exc:
        print(f"{prog}: {exc}", file=sys.stderr)
        raise SystemExit(1) from None


__all__ = ["EXTRAS", "MissingExtra", "ServiceFailed", "needs", "run_command"]
