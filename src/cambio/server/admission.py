"""What a connection must do before the app sees it: the socket-level guards under uvicorn.

uvicorn has a keep-alive timeout (idle between requests) but no limit on how long a request
may take to arrive, and no cap per client: a few hundred sockets that each send one header
line every few seconds held every file descriptor of the process, and every table went
offline (a "slowloris" attack). These guards are uvicorn's own HTTP (h11) and WebSocket
(websockets sans-I/O) protocols with three checks added:

- **per-address cap**: at most ``per_address`` open connections from one peer address,
  counted alike whether they are half-sent requests, keep-alive HTTP connections or
  WebSockets (an upgraded connection keeps its slot until it closes); past it, a new
  connection is answered 503 and closed before anything is read from it. Peers that are
  trusted proxies (``--forwarded-allow-ips``) are not capped: every client of a proxy
  shares its address, and the proxy is the one to cap them.
- **request timeout**: a request's head and body must have arrived ``request_timeout``
  seconds after the connection opened (or after the previous response, on a keep-alive
  connection); else the connection is closed. A WebSocket is past this check once its
  handshake request has arrived.
- **no ``Transfer-Encoding`` with ``Content-Length``**: such a request is answered 400 and
  the connection closed (RFC 9112 6.1), instead of being read as chunked and what is left
  served as a second request (request smuggling through a proxy that reads the other
  header).
"""

from __future__ import annotations

import asyncio
import ipaddress
import logging
from typing import Any

import h11
from h11._connection import DEFAULT_MAX_INCOMPLETE_EVENT_SIZE
from uvicorn.config import Config
from uvicorn.protocols.http.h11_impl import H11Protocol
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from uvicorn.server import ServerState

log = logging.getLogger("cambio.server")

_BUSY = b"too many open connections from your address"
BUSY_RESPONSE = (b"HTTP/1.1 503 Service Unavailable\r\ncontent-type: text/plain\r\n"
                 b"content-length: %d\r\nretry-after: 5\r\nconnection: close\r\n\r\n%s"
                 % (len(_BUSY), _BUSY))
"""Written before anything is read, so it does not depend on what the client sent."""


class Admission:
    """The open connections of one server process, by peer address."""

    def __init__(self, per_address: int, request_timeout: float,
                 trusted: str | None = None) -> None:
        """``per_address``: 0 for no cap; ``request_timeout``: 0 for no timeout;
        ``trusted``: ``--forwarded-allow-ips`` (addresses and networks, or ``*``)."""
        self.per_address = per_address
        self.request_timeout = request_timeout
        self.open: dict[str, int] = {}
        self.refused = 0
        self.timed_out = 0
        self._trust_all = False
        self._trusted: list[ipaddress.IPv4Network | ipaddress.IPv6Network] = []
        self._trusted_names: set[str] = set()
        for item in (trusted or "").split(","):
            item = item.strip()
            if item == "*":
                self._trust_all = True
            elif item:
                try:
                    self._trusted.append(ipaddress.ip_network(item, strict=False))
                except ValueError:
                    self._trusted_names.add(item)  # a unix socket path, a literal name

    def capped(self, address: str) -> bool:
        """Whether connections from ``address`` count against the cap."""
        if not self.per_address or self._trust_all or address in self._trusted_names:
            return False
        if not self._trusted:
            return True
        try:
            ip = ipaddress.ip_address(address)
        except ValueError:
            return True
        return not any(ip in net for net in self._trusted)

    def take(self, address: str) -> bool:
        held = self.open.get(address, 0)
        if held >= self.per_address:
            self.refused += 1
            return False
        self.open[address] = held + 1
        return True

    def release(self, address: str) -> None:
        left = self.open.get(address, 0) - 1
        if left > 0:
            self.open[address] = left
        else:
            self.open.pop(address, None)


def _peer(transport: asyncio.BaseTransport) -> str:
    peer = transport.get_extra_info("peername")
    if isinstance(peer, tuple | list) and peer:
        return str(peer[0])
    return str(peer) if peer else "?"


class StrictConnection(h11.Connection):
    """h11's server side, refusing a request that has both body framings."""

    def next_event(self) -> Any:
        event = super().next_event()
        if isinstance(event, h11.Request):
            names = {name.lower() for name, _ in event.headers}
            if b"transfer-encoding" in names and b"content-length" in names:
                raise h11.RemoteProtocolError("Transfer-Encoding with Content-Length")
        return event


def guarded_protocols(admission: Admission
                      ) -> tuple[type[H11Protocol], type[WebSocketsSansIOProtocol]]:
    """uvicorn's HTTP and WebSocket protocol classes, bound to ``admission`` (uvicorn makes
    one protocol object per connection and passes it only its config and server state)."""

    class GuardedWebSocket(WebSocketsSansIOProtocol):
        """Holds the slot its HTTP connection took, until the WebSocket closes; never logs
        a frame."""

        slot: str | None = None

        def __init__(self, config: Config, server_state: ServerState,
                     app_state: dict[str, Any],
                     _loop: asyncio.AbstractEventLoop | None = None) -> None:
            super().__init__(config, server_state, app_state, _loop)
            # websockets logs every frame, both ways, at DEBUG (to uvicorn's logger): a
            # frame is a seat's private view, so it never reaches a log at any level.
            self.conn.debug = False

        def connection_lost(self, exc: Exception | None) -> None:
            if self.slot is not None:
                admission.release(self.slot)
                self.slot = None
            super().connection_lost(exc)

    class GuardedHttp(H11Protocol):
        def __init__(self, config: Config, server_state: ServerState,
                     app_state: dict[str, Any],
                     _loop: asyncio.AbstractEventLoop | None = None) -> None:
            super().__init__(config, server_state, app_state, _loop)
            size = config.h11_max_incomplete_event_size
            self.conn = StrictConnection(
                h11.SERVER, DEFAULT_MAX_INCOMPLETE_EVENT_SIZE if size is None else size)
            self.slot: str | None = None
            self.deadline: asyncio.TimerHandle | None = None

        def connection_made(self, transport: asyncio.BaseTransport) -> None:
            super().connection_made(transport)  # type: ignore[arg-type]
            address = _peer(transport)
            if admission.capped(address):
                if not admission.take(address):
                    self.transport.write(BUSY_RESPONSE)
                    self.transport.close()
                    return
                self.slot = address
            self._arm()

        def _arm(self) -> None:
            self._disarm()
            if admission.request_timeout > 0:
                self.deadline = self.loop.call_later(admission.request_timeout, self._expired)

        def _disarm(self) -> None:
            if self.deadline is not None:
                self.deadline.cancel()
                self.deadline = None

        def _expired(self) -> None:
            self.deadline = None
            if self.conn.their_state in (h11.IDLE, h11.SEND_BODY) \
                    and not self.transport.is_closing():
                admission.timed_out += 1
                self.transport.close()

        def data_received(self, data: bytes) -> None:
            super().data_received(data)
            if self.conn.their_state not in (h11.IDLE, h11.SEND_BODY):
                self._disarm()  # the whole request is in (or the connection is done)

        def handle_websocket_upgrade(self, event: h11.Request) -> None:
            self._disarm()
            super().handle_websocket_upgrade(event)
            protocol = self.transport.get_protocol()
            if isinstance(protocol, GuardedWebSocket):
                protocol.slot, self.slot = self.slot, None

        def on_response_complete(self) -> None:
            super().on_response_complete()
            if not self.transport.is_closing() and self.conn.their_state in (h11.IDLE,
                                                                             h11.SEND_BODY):
                self._arm()  # the next request on this connection has as long

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            if self.slot is not None:
                admission.release(self.slot)
                self.slot = None
            super().connection_lost(exc)

    return GuardedHttp, GuardedWebSocket
