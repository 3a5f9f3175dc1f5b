"""The secrets of an identity: the browser's key, passwords, transfer codes.

A browser holds a random **key** (192 bits) in an HttpOnly, SameSite=Lax cookie; the server
stores its SHA-256 only, so a copy of the database signs nobody in. A **password** is hashed
with argon2id (argon2-cffi's defaults: the OWASP-recommended parameters), within the
process's hashing budget (:mod:`.hashing`: a fifth of a second of CPU a hash, off the event
loop, a few at a time). A **transfer code** is 10 random characters
from an alphabet without look-alikes (50 bits), stored as its SHA-256, valid for minutes and
usable once.
"""

from __future__ import annotations

import hashlib
import ipaddress
import secrets

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError

COOKIE = "cambio_player"
"""The cookie that holds the browser's key."""
COOKIE_AGE = 400 * 24 * 3600
"""Seconds the cookie lasts (browsers cap cookies at 400 days); each visit renews it."""
TRANSFER_ALPHABET = "23456789ABCDEFGHJKLMNPQRSTUVWXYZ"
TRANSFER_LENGTH = 10

_hasher = PasswordHasher()


def new_player_id() -> str:
    """A player's public id: ``_`` and 12 random characters (usernames never start with
    ``_``)."""
    return "_" + secrets.token_urlsafe(9)


def new_key() -> str:
    return secrets.token_urlsafe(24)


def key_hash(key: str) -> str:
    return hashlib.sha256(key.encode("utf-8", "replace")).hexdigest()


def network(host: str) -> str:
    """The network a client address stands for: an IPv4 address itself, an IPv6 one's
    /64 (one household or host holds a whole /64)."""
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        return host
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.ip_network(f"{ip}/64", strict=False))
    return str(ip)


def address_hash(host: str) -> str:
    """What Play now's queue keeps of a client's network, for minutes (two people of one
    network are never rated together)."""
    return hashlib.sha256(f"address:{network(host)}".encode()).hexdigest()[:16]


def origin(host: str) -> str:
    """What is stored, for good, of the network a player was made from: 16 bits of a hash
    -- enough to tell one network from almost any other (two unrelated players' identities
    share one once in 65,536 pairs), far too little to say which address it was (each value
    stands for 65,536 IPv4 addresses)."""
    return hashlib.sha256(f"origin:{network(host)}".encode()).hexdigest()[:4]


def new_transfer_code() -> str:
    return "".join(secrets.choice(TRANSFER_ALPHABET) for _ in range(TRANSFER_LENGTH))


def transfer_hash(code: str) -> str:
    """The stored form of a transfer code, read as typed: case and dashes do not matter."""
    clean = "".join(c for c in code.upper() if c.isalnum())
    return key_hash("transfer:" + clean)


def hash_password(password: str) -> str:
    return _hasher.hash(password)


def password_matches(stored: str | None, password: str) -> bool:
    """Whether ``password`` is the one hashed in ``stored``; with no stored hash a dummy
    hash is checked all the same, so the time taken does not say whether the account
    exists."""
    try:
        return _hasher.verify(stored or _DUMMY, password) and stored is not None
    except (VerifyMismatchError, VerificationError, InvalidHashError):
        return False


_DUMMY = ("$argon2id$v=19$m=65536,t=3,p=4$3M6PnidfnAKVgHb8K17+9Q"
          "$VdM7rRnriuqCVJJEdCV+GBE2pjSTiR0sKl7OhXsrX8k")
"""The hash of a password nobody knows, made with the hasher's parameters (a test checks
they still match). A constant, not hashed at import: a hash takes a third of a second, and
every server process (each test server, each restarted cluster node) paid it on start."""
MIN_PASSWORD = 8
MAX_PASSWORD = 256
