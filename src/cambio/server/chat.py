"""A table's chat: plain text and quick emotes from its seated players, stored with the table.

The server only ever sends chat as text in JSON; the page renders it as text (never as HTML),
so markup in a message is shown as typed. Messages are cleaned like names (no bidi controls,
no control characters, runs of white space made one space), limited in length and rate, and
read by spectators only at tables created with ``"spectator_chat": true``.
"""

from __future__ import annotations

import unicodedata
from typing import Any

from .errors import BAD_MESSAGE, ProtocolError, Words
from .listing import clean_text

MAX_CHAT = 200
"""Characters of one chat message (after cleaning)."""
CHAT_KEPT = 100
"""Chat lines a table keeps in memory and sends to a connection that arrives."""
EMOTES = {"hi": "Hi!", "gg": "Good game!", "nice": "Nice one!", "oops": "Oops!",
          "thanks": "Thanks!", "hurry": "Your move!"}
"""Quick emotes: an id the page sends, the words everyone sees."""


def chat_setting(body: dict[str, Any]) -> dict[str, Any]:
    """``spectator_chat`` of a create-table body: may spectators read the chat?"""
    value = body.get("spectator_chat", False)
    if not isinstance(value, bool):
        raise ProtocolError("bad_request", "\"spectator_chat\" must be true or false")
    return {"spectator_chat": True} if value else {}


def chat_text(text: Any, emote: Any) -> tuple[str, str | None]:
    """The text a chat message shows and its emote id; ``bad_message`` if it is neither a
    known emote nor 1 to :data:`MAX_CHAT` characters of text."""
    if emote is not None:
        if not isinstance(emote, str) or emote not in EMOTES:
            raise ProtocolError(BAD_MESSAGE, f"unknown emote; emotes: {', '.join(EMOTES)}")
        return EMOTES[emote], emote
    if not isinstance(text, str):
        raise ProtocolError(BAD_MESSAGE, "\"chat\" needs \"text\" or \"emote\"")
    shown = clean_text("".join(c if unicodedata.category(c) != "Cc" else " " for c in text))
    if not shown or len(shown) > MAX_CHAT:
        raise ProtocolError(BAD_MESSAGE, Words(
            "refusal.chatLength", f"a chat message is 1 to {MAX_CHAT} characters",
            {"max": MAX_CHAT}))
    return shown, None
