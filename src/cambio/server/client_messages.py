"""Every message a client sends over a table's WebSocket, defined once, and the one parser
that turns a frame into one of them.

Each message is a frozen ``msgspec`` struct tagged by its ``type``: the WebSocket door
(:mod:`.ws`) decodes a frame straight into the closed union :data:`ClientMessage`, so
everything behind the door works with typed values, never with dicts. ``msgspec`` was chosen
by measurement: decoding an ``act`` into its struct takes a tenth of the time the
hand-written ``json.loads`` and checks took, and a sixth of pydantic's
(docs/reports/performance.md, "One typed protocol"). A frame that does not decode is looked
at once more, slowly, only to say what was wrong with it: the answers are the typed errors
the protocol has always given (``bad_message`` with what the message needs).

A field's ``Annotated`` text is its description and a class's docstring its meaning;
``scripts/gen_protocol.py`` writes the browser's JSDoc typedefs and docs/protocol.md's tables
from them. What the server sends is :mod:`.server_messages`.
"""

from __future__ import annotations

import json
import sys
from typing import Annotated, Any, ClassVar

import msgspec
from msgspec import Meta, Struct

from .chat import EMOTES, MAX_CHAT
from .errors import BAD_MESSAGE, ProtocolError

MAX_REF = 64
"""Characters of a string ``ref`` (an echoed ref must not make an error message large)."""

Count = Annotated[int, Meta(ge=0, lt=1 << 31)]
"""A version, a round, a game number: a whole number (JSON's ``true`` is not one)."""

Ref = (Annotated[str, Meta(max_length=MAX_REF)]
       | Annotated[int, Meta(gt=-(1 << 53), lt=1 << 53)]
       | Annotated[float, Meta(ge=-sys.float_info.max, le=sys.float_info.max)]
       | None)
"""What a client may tag a message with, to match the answer: a short string or a finite
number (``1e400`` overflows to infinity, which is not JSON: echoed back, it would make the
server's own message invalid)."""


class ClientMessageBase(Struct, tag_field="type", kw_only=True, frozen=True):
    """What every client message has."""

    ref: Annotated[Ref, "echoed in the answer (an `error`, a `hint`): a string of up to "
                        "64 characters or a finite number"] = None
    usage: ClassVar[str] = ""
    """The ``bad_message`` error's text when the message does not fit its type."""


class Act(ClientMessageBase, tag="act", frozen=True):
    """play an action for the connection's seat"""

    action: Annotated[str, "the action's text (records.md's notation)"]
    version: Annotated[Count, "the version the action was chosen at"]
    reaction_ms: Annotated[Count | None, "a snap's reaction time: milliseconds from the "
                                         "moment the card was shown (optional)"] = None
    usage: ClassVar[str] = ("\"act\" needs \"action\" (text) and \"version\" (a whole "
                            "number)")


class Sync(ClientMessageBase, tag="sync", frozen=True):
    """"I have everything up to `since` of this game and round": the server sends the
    missing `update`s (more than 64 missed, or another game or round, or `game_no`/`round`
    left out: a `state` instead); nothing if nothing was missed. Catch-up updates carry the
    current view, not the view of their time."""

    since: Annotated[Count, "the last version the client has"]
    game_no: Annotated[Count | None, "the game it belongs to"] = None
    round: Annotated[Count | None, "the round it belongs to"] = None
    usage: ClassVar[str] = ("\"sync\" needs \"since\" (a whole number); \"game_no\" and "
                            "\"round\" are whole numbers if given")


class HintRequest(ClientMessageBase, tag="hint", frozen=True):
    """assist mode (cards): "what would the hard bot do?" -- only for the seat whose
    decision it is (else `not_playing`; spectators, and every seat at a rated table or the
    daily deal, whose results are compared: `forbidden`). Searched off the event
    loop; asking again at the same version gets the same answer. While the hard bot's
    compiled kernels are still loading after the server started, the hint comes once they
    are (the table plays on meanwhile)."""

    usage: ClassVar[str] = "\"hint\" takes only \"ref\""


class Ping(ClientMessageBase, tag="ping", frozen=True):
    """keep-alive: answered with `pong`"""

    rtt_ms: Annotated[Count | None, "the round trip the client measured for its previous "
                                    "ping (to its pong), for judging snap races "
                                    "(optional)"] = None
    usage: ClassVar[str] = "\"ping\" takes \"ref\" and \"rtt_ms\" (a whole number)"


class Back(ClientMessageBase, tag="back", frozen=True):
    """(protocol 2) a player whose seat was marked away by the turn clock takes it back;
    any action of the seat does too"""

    usage: ClassVar[str] = "\"back\" takes only \"ref\""


class ChatSay(ClientMessageBase, tag="chat", frozen=True):
    """(protocol 2) say something at the table (seats only; a spectator gets `forbidden`):
    `text` or `emote`, else `bad_message`. Each seat may send 5 at once, then one every 2
    seconds (`rate_limited`, which does not count towards closing the connection). Stored
    with the table before it is sent to anyone."""

    text: Annotated[str | None, f"1 to {MAX_CHAT} characters after control and bidi "
                                "characters are removed and runs of white space made one "
                                "space"] = None
    emote: Annotated[str | None, f"one of {', '.join(f'`{e}`' for e in EMOTES)} (sent as "
                                 "its words)"] = None
    usage: ClassVar[str] = "\"chat\" needs \"text\" or \"emote\" (a string)"


ClientMessage = Act | Sync | HintRequest | Ping | Back | ChatSay
"""Every message a client may send: a closed union, matched exhaustively at the door."""

CLIENT_MESSAGES: tuple[type[ClientMessageBase], ...] = (Act, Sync, HintRequest, Ping, Back,
                                                        ChatSay)
BY_TAG: dict[str, type[ClientMessageBase]] = {
    str(cls.__struct_config__.tag): cls for cls in CLIENT_MESSAGES}

_decoder = msgspec.json.Decoder(ClientMessage)


def parse(raw: str | bytes) -> ClientMessage:
    """The frame as its message, or :class:`ProtocolError` ``bad_message`` saying what is
    wrong, with the ``ref`` to echo (``exc.ref``) when the frame had a valid one."""
    try:
        return _decoder.decode(raw)
    except (msgspec.DecodeError, msgspec.ValidationError):
        return _parse_slowly(raw)


class BadMessage(ProtocolError):
    """A frame that is not one of the client messages; ``ref`` is the one to echo."""

    def __init__(self, message: str, ref: Any = None) -> None:
        super().__init__(BAD_MESSAGE, message)
        self.ref = ref


def _parse_slowly(raw: str | bytes) -> ClientMessage:
    """The frame the fast decoder refused, looked at as JSON first: why it is not a message
    (or the message, for JSON the decoder does not take, such as a lone surrogate's
    escape, which ``json`` reads)."""
    try:
        data = json.loads(raw, parse_constant=_no_constant)
    except (ValueError, RecursionError):
        raise BadMessage("not JSON") from None
    if not isinstance(data, dict):
        raise BadMessage("a message is a JSON object with a \"type\"")
    ref = data.get("ref")
    try:
        msgspec.convert(ref, Ref)
    except msgspec.ValidationError:
        raise BadMessage(f"\"ref\" must be a string or a number (up to {MAX_REF} "
                         "characters)") from None
    cls = BY_TAG.get(data["type"]) if isinstance(data.get("type"), str) else None
    if cls is None:
        raise BadMessage(f"unknown message type; types: {', '.join(BY_TAG)}", ref)
    try:
        message: ClientMessage = msgspec.convert(data, cls)  # type: ignore[assignment]
    except msgspec.ValidationError:
        raise BadMessage(cls.usage, ref) from None
    return message


def _no_constant(name: str) -> Any:
    """``NaN`` and ``Infinity`` are not JSON: echoed back (in an error's ``ref``), they
    would make the server's own message invalid."""
    raise ValueError(f"{name} is not JSON")


__all__ = ["CLIENT_MESSAGES", "Act", "Back", "BadMessage", "ChatSay", "ClientMessage",
           "ClientMessageBase", "HintRequest", "Ping", "Sync", "parse"]
