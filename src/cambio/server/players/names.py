"""Usernames and display names: what a player may call themselves.

A **display name** is cleaned as every name at a table is (:func:`..listing.clean_text`: no
bidi controls, one space between words) and is at most 40 characters. A **username** is the
name a player signs in with and the address of their profile (``/p/{username}``): 3 to 24
letters, digits, ``_``, ``-`` or ``.``, starting with a letter or digit, compared without
regard to case (``Ann`` and ``ann`` are one username). Letters of any script are allowed;
control characters, bidi controls, spaces and symbols are not, so a username can neither
reverse the text around it nor look like two words. Usernames never start with ``_``: that
is how an unclaimed player's id starts, so the two never meet in ``/p/{name}``.
"""

from __future__ import annotations

import unicodedata

from ..errors import ProtocolError, Words
from ..listing import clean_text

MAX_DISPLAY = 40
USERNAME_MIN = 3
USERNAME_MAX = 24
PUNCTUATION = frozenset("_-.")


def display_name(raw: object) -> str:
    """A display name, checked (``bad_request``)."""
    if not isinstance(raw, str):
        raise ProtocolError("bad_request", "\"name\" must be text")
    name = clean_text("".join(c for c in raw if unicodedata.category(c) != "Cc"))
    if not name:
        raise ProtocolError("bad_request", Words("refusal.nameEmpty", "the name is empty"))
    if len(name) > MAX_DISPLAY:
        raise ProtocolError("bad_request", Words(
            "refusal.nameTooLong", f"names are limited to {MAX_DISPLAY} characters",
            {"max": MAX_DISPLAY}))
    return name


def username(raw: object) -> tuple[str, str]:
    """``(key, shown)``: the case-folded key a username is unique by, and the username as
    typed (NFKC-normalized); ``bad_request`` with the reason if it is not one."""
    if not isinstance(raw, str):
        raise ProtocolError("bad_request", "\"username\" must be text")
    shown = unicodedata.normalize("NFKC", raw)
    if not USERNAME_MIN <= len(shown) <= USERNAME_MAX:
        raise ProtocolError("bad_request", Words(
            "refusal.usernameLength", f"usernames are {USERNAME_MIN} to {USERNAME_MAX} "
                                      "characters", {"min": USERNAME_MIN, "max": USERNAME_MAX}))
    for c in shown:
        if not (c.isalnum() or c in PUNCTUATION) or unicodedata.category(c) in ("Cf", "Cc"):
            raise ProtocolError("bad_request", Words(
                "refusal.usernameChars", "usernames are letters, digits, '_', '-' and '.' "
                                         "only"))
    if not shown[0].isalnum():
        raise ProtocolError("bad_request", Words(
            "refusal.usernameStart", "usernames start with a letter or a digit"))
    return shown.casefold(), shown


def lookup_key(raw: str) -> str:
    """What ``/p/{name}`` is looked up by: a player id as it is, a username case-folded."""
    if raw.startswith("_"):
        return raw
    return unicodedata.normalize("NFKC", raw).casefold()
