"""How a table shows in the lobby: its name, and whether it is private (invite only).

Both are chosen when the table is created and kept in its stored config, next to the game's
own settings; a private table is left out of the lobby's list and is reached by its link.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .errors import ProtocolError, Words

MAX_TABLE_NAME = 40
"""The longest table name (the lobby's field has the same ``maxlength``)."""

BIDI_CONTROLS = dict.fromkeys(map(ord, "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e"
                                       "\u2066\u2067\u2068\u2069"))
"""Removed from names: a right-to-left override in a name would reverse the text shown
around it (a seat list, a log line, a terminal), wherever the name is shown."""


def clean_text(text: str) -> str:
    """A name as shown: no bidi controls, runs of white space made one space."""
    return " ".join(text.translate(BIDI_CONTROLS).split())


def listing_options(body: dict[str, Any]) -> dict[str, Any]:
    """The ``table_name`` and ``private`` of a create-table body, checked (``bad_request``)."""
    raw = body.get("table_name")
    if raw is None:
        raw = ""
    if not isinstance(raw, str):
        raise ProtocolError("bad_request", "\"table_name\" must be text")
    name = clean_text(raw)
    if len(name) > MAX_TABLE_NAME:
        raise ProtocolError("bad_request", Words(
            "refusal.tableNameTooLong", f"table names are limited to {MAX_TABLE_NAME} "
                                        "characters", {"max": MAX_TABLE_NAME}))
    private = body.get("private", False)
    if not isinstance(private, bool):
        raise ProtocolError("bad_request", "\"private\" must be true or false")
    out: dict[str, Any] = {}
    if name:
        out["table_name"] = name
    if private:
        out["private"] = True
    return out


def compared(config: Mapping[str, object]) -> bool:
    """Whether a table's result is compared with other players': a rated table (ratings)
    or the daily deal (the day's table). Such a table gives no hints; its summary says so
    (``hints_off``), so the page does not decide it again."""
    return bool(config.get("rated") or config.get("daily"))


def listing_fields(config: dict[str, Any]) -> dict[str, Any]:
    """What a table summary says about the listing (tables made before these existed have
    neither: no name, public). ``strangers``: Play now seated its players (the chat then
    takes quick phrases only from a player with no claimed account, :mod:`.social.hush`).
    ``daily``: the day's deal (its results are compared, so it gives no hints)."""
    return {"table_name": str(config.get("table_name", "")),
            "private": bool(config.get("private")),
            "tutorial": bool(config.get("tutorial")),
            "rated": bool(config.get("rated")),
            "strangers": bool(config.get("strangers")),
            "daily": bool(config.get("daily")),
            "hints_off": compared(config)}
