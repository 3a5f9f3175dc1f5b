"""Every message the server sends a client over a table's WebSocket, defined once.

Each message is a :class:`~typing.TypedDict`: the table builds plain dicts (encoded with
``orjson``, as fast as before) and ``mypy --strict`` checks every key and type against the
definitions here. A field's ``Annotated`` text is its description, a class's docstring says
when it is sent; ``scripts/gen_protocol.py`` writes the browser's JSDoc typedefs
(``web/static/protocol_types.js``) and the tables of ``docs/protocol.md`` from them. What a
client sends the server is :mod:`.client_messages`.

Only the standard library (and :mod:`.errors`, which needs nothing else) is imported: the
offline client (:mod:`.solo`, in Pyodide) sends the same messages.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, NotRequired, TypedDict

from .errors import said

PROTOCOL = 2
"""The version of docs/protocol.md this server speaks (sent in ``welcome``)."""

JsonObject = dict[str, Any]
"""A summary, a view or an event: JSON objects whose shape the game and docs/protocol.md
describe in prose (a game served with ``--game`` has views of its own)."""


class Welcome(TypedDict):
    """right after connecting; `protocol` is this document's version (2; see
    [Versions](#versions))"""

    type: Literal["welcome"]
    seat: Annotated[int | None, "the connection's seat, `null` for a spectator"]
    table: Annotated[JsonObject, "the table's summary"]
    version: Annotated[int, "the current round's version"]
    game_no: Annotated[int, "the table's game"]
    round: Annotated[int, "the game's round"]
    protocol: Annotated[int, "the protocol version"]


class State(TypedDict):
    """full resync: after `welcome` (once a game has been dealt), after a `sync` the server
    cannot answer with updates, and when a new game/round starts"""

    type: Literal["state"]
    version: Annotated[int, "the round's version"]
    game_no: Annotated[int, "the table's game"]
    round: Annotated[int, "the game's round"]
    view: Annotated[JsonObject, "the recipient's view"]
    log: Annotated[list[JsonObject], "the round's events so far, as the recipient saw them"]


class Update(TypedDict):
    """every accepted action, in order; `version` goes up by one each time"""

    type: Literal["update"]
    version: Annotated[int, "the version this action made"]
    game_no: Annotated[int, "the table's game"]
    round: Annotated[int, "the game's round"]
    event: Annotated[JsonObject, "the action's event as the recipient may see it"]
    view: Annotated[JsonObject, "the recipient's view after it"]


class TableChanged(TypedDict):
    """seats, status, connection or away changes"""

    type: Literal["table"]
    table: Annotated[JsonObject, "the table's summary"]


class Error(TypedDict):
    """a rejected message (see below); nothing changed"""

    type: Literal["error"]
    code: Annotated[str, "the error code"]
    message: Annotated[str, "what was wrong, from public facts only"]
    ref: Annotated[str | float | None, "the rejected message's `ref`, if it was valid"]
    key: NotRequired[Annotated[str, "the catalog key (`web/static/locales`) of what to "
                                    "show instead of `message`, when there is one"]]
    params: NotRequired[Annotated[JsonObject, "the `{placeholders}` of `key`'s text"]]


class Pong(TypedDict):
    """answer to `ping`"""

    type: Literal["pong"]


class ChatLine(TypedDict):
    """One line of a table's chat."""

    n: Annotated[int, "counts the table's lines"]
    seat: Annotated[int, "who said it"]
    name: Annotated[str, "the seat's name when it was said"]
    text: Annotated[str, "plain text (show it as text, never as HTML)"]
    emote: Annotated[str | None, "the quick emote's id, or `null`"]
    at: Annotated[str, "when, ISO 8601"]


class ChatLog(TypedDict):
    """(protocol 2) right after `welcome` (and `state`, `clock`) to a connection that may
    read the chat: the table's last 100 chat lines, oldest first"""

    type: Literal["chat_log"]
    lines: Annotated[list[ChatLine], "the lines, each a `chat` message's fields"]


class Chat(ChatLine):
    """(protocol 2) a chat line, to everyone who may read it (seats; spectators where
    `spectator_chat`)"""

    type: Literal["chat"]


class Clock(TypedDict):
    """the turn clock (protocol 2): sent to everyone when a decision starts or the clock
    stops, and after every `state` sent to a connection"""

    type: Literal["clock"]
    game_no: Annotated[int, "the table's game"]
    round: Annotated[int, "the game's round"]
    version: Annotated[int, "the round's version"]
    seconds: Annotated[float | None, "the table's seconds per decision"]
    seat: Annotated[int | None, "the seat that must decide, `null` when no clock runs"]
    left: Annotated[float | None, "seconds it has left, counted from when the message is "
                                  "sent; `null` when no clock runs"]
    deadline: Annotated[float | None, "when they run out: Unix epoch seconds (UTC) by the "
                                      "server's clock; `null` when no clock runs"]


class Hint(TypedDict):
    """answer to a `hint` (cards): the `hard` bot's move for your seat from your own view"""

    type: Literal["hint"]
    version: Annotated[int, "the version it was searched at"]
    action: Annotated[str, "the suggested action"]
    text: Annotated[str, "the suggestion in words"]
    score: Annotated[float, "the rollouts' estimate of your final round score after it"]
    win_share: Annotated[float, "... and of your chance of winning"]
    runner_up: Annotated[str | None, "the next best move (`null`: one sensible move)"]
    runner_up_score: Annotated[float | None, "its estimated score"]
    runner_up_win_share: Annotated[float | None, "its estimated chance of winning"]
    match: Annotated[bool, "the chances are of winning the match to its target (the hint "
                           "knew the standing), not the round"]
    ref: Annotated[str | float | None, "the `hint` message's `ref`"]


ServerMessage = (Welcome | State | Update | TableChanged | Error | Pong | ChatLog | Chat
                 | Clock | Hint)
"""Every message a client may get, in the order docs/protocol.md lists them."""

SERVER_MESSAGES: tuple[type[Any], ...] = (Welcome, State, Update, TableChanged, Error, Pong,
                                          ChatLog, Chat, Clock, Hint)


def error(code: str, message: str, ref: str | float | None = None) -> Error:
    """An ``error`` message."""
    return {"type": "error", "code": code, "message": message, "ref": ref, **said(message)}


__all__ = ["PROTOCOL", "SERVER_MESSAGES", "Chat", "ChatLine", "ChatLog", "Clock", "Error",
           "Hint", "JsonObject", "Pong", "ServerMessage", "State", "TableChanged", "Update",
           "Welcome", "error"]
