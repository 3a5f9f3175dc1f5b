"""Typed protocol errors: one code per kind of refusal (``docs/protocol.md``, "Error codes").

Every message text is built from public facts only (the engines' reasons already are), so an
error never tells a client something it has not seen.
"""

from __future__ import annotations

from typing import Any, TypedDict

BAD_MESSAGE = "bad_message"
TOO_LARGE = "too_large"
RATE_LIMITED = "rate_limited"
FORBIDDEN = "forbidden"
ILLEGAL = "illegal"
STALE = "stale"
NOT_PLAYING = "not_playing"
NOT_FOUND = "not_found"
SERVER_ERROR = "server_error"
INVALID_TOKEN = "invalid_token"
"""The only answer after which a client should forget its seat token."""
BUSY = "busy"
"""A capacity or rate refusal of a new connection: try again later (close code 1013)."""
UNSUPPORTED_MEDIA = "unsupported_media_type"
"""A REST body that is not ``application/json`` (HTTP 415)."""
UNAVAILABLE = "unavailable"
"""The table's stored data is damaged, or its storage failed: it is set aside."""

# REST codes, with their HTTP status.
HTTP_STATUS = {
    "bad_request": 400,
    "unauthorized": 401,
    FORBIDDEN: 403,
    NOT_FOUND: 404,
    "conflict": 409,
    TOO_LARGE: 413,
    UNSUPPORTED_MEDIA: 415,
    RATE_LIMITED: 429,
    SERVER_ERROR: 500,
    UNAVAILABLE: 503,
}


RETRY_AFTER = 5
"""Seconds a client is asked to wait when the database is out of reach."""


def store_unreachable() -> ProtocolError:
    """The answer to a call that failed because the database could not be used just now:
    nothing changed, and the same call may succeed shortly."""
    return ProtocolError(UNAVAILABLE, Words("refusal.storeUnreachable", "the database cannot be "
                                            "reached; nothing changed; try again shortly"),
                         RETRY_AFTER)


class Words(str):
    """A message in English that also names what the page says instead: a catalog key (of
    ``web/static/locales/*.json``) and its params.

    It is the English text itself (a ``str``), so it passes unchanged through every layer
    that hands a message on -- a refusal, ``Conn.error``, a REST error -- and terminal and
    API clients read it as before; where a message is sent, :func:`said` adds the key and
    params beside it (the ``error`` message's and a REST error's ``key`` and ``params``), and
    the page shows the key's text in the reader's language. A message built without them is
    shown by its code's generic words (docs/i18n.md, "The server's words").
    """

    key: str
    params: dict[str, Any]

    def __new__(cls, key: str, english: str, params: dict[str, Any] | None = None) -> Words:
        """``english``: the whole text; ``params``: the values of the catalog entry's
        ``{placeholders}``."""
        self = super().__new__(cls, english)
        self.key = key
        self.params = params or {}
        return self


class Said(TypedDict, total=False):
    """What a sent refusal carries beside its English ``message`` (:func:`said`)."""

    key: str
    params: dict[str, Any]


def said(message: str) -> Said:
    """The ``key`` and ``params`` to send beside ``message`` (nothing for plain text)."""
    if not isinstance(message, Words):
        return {}
    return {"key": message.key, "params": message.params} if message.params \
        else {"key": message.key}


class ProtocolError(Exception):
    """A refused request or message; nothing was changed."""

    def __init__(self, code: str, message: str, retry_after: int | None = None) -> None:
        """``retry_after``: seconds after which the same request may well succeed (the
        database was out of reach), sent as ``Retry-After`` (REST) or close code 1013
        (a WebSocket); ``None`` when asking again will not help."""
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
        self.retry_after = retry_after

    @property
    def status(self) -> int:
        """The HTTP status of this error when it answers a REST call."""
        return HTTP_STATUS.get(self.code, 400)
