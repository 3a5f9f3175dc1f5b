"""Typed protocol errors: one code per kind of refusal (``docs/protocol.md``, "Error codes").

Every message text is built from public facts only (the engines' reasons already are), so an
error never tells a client something it has not seen.
"""

from __future__ import annotations

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
    return ProtocolError(UNAVAILABLE, "the database cannot be reached; nothing changed; try "
                                      "again shortly", RETRY_AFTER)


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
