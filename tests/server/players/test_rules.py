"""The rules of identity, ratings and pairing, on plain values (no server)."""

from __future__ import annotations

import pytest

from cambio.bots.board.registry import BOARD_BOTS
from cambio.bots.cards.registry import CARD_BOTS
from cambio.server.errors import ProtocolError
from cambio.server.players import keys, names
from cambio.server.players.matching import Entry, form
from cambio.server.players.ratings import (
    BOARD_BOT_ELO,
    CARD_BOT_SHARES,
    MU,
    Entrant,
    Person,
    Rating,
    booked,
    bot_mu,
    established,
    nearest_bot,
    places,
    rate,
    rating_class,
    shown,
    unrated,
)


# ---------------------------------------------------------------------- names
@pytest.mark.parametrize("raw", ["ann", "Ann_B", "zoë", "李小龙", "a.b-c", "007"])
def test_usernames_that_are_accepted(raw: str) -> None:
    key, shown_as = names.username(raw)
    assert key == shown_as.casefold()


@pytest.mark.parametrize("raw", ["ab", "x" * 25, "ann smith", "ann\u202eevil", "ann\x00",
                                 "_ann", "-ann", "ann!", "an\u200bn", 7, None])
def test_usernames_that_are_refused(raw: object) -> None:
    with pytest.raises(ProtocolError) as err:
        names.username(raw)
    assert err.value.code == "bad_request"


def test_usernames_are_one_whatever_the_case_and_the_width() -> None:
    assert names.username("ANN")[0] == names.username("ann")[0]
    assert names.username("ａｎｎ")[0] == "ann"  # fullwidth letters are NFKC-folded
    assert names.lookup_key("Ann") == "ann"
    assert names.lookup_key("_AbC") == "_AbC"  # a player id is looked up as it is


def test_display_names_lose_bidi_and_control_characters() -> None:
    assert names.display_name("  Ann \u202e Lee\x07 ") == "Ann Lee"
    with pytest.raises(ProtocolError):
        names.display_name("x" * 41)
    with pytest.raises(ProtocolError):
        names.display_name("\u202e")


# ---------------------------------------------------------------------- secrets
def test_player_ids_never_look_like_usernames() -> None:
    pid = keys.new_player_id()
    assert pid.startswith("_") and len(pid) == 13
    with pytest.raises(ProtocolError):
        names.username(pid)


def test_passwords_are_argon2id_hashes_and_checked() -> None:
    stored = keys.hash_password("correct horse")
    assert stored.startswith("$argon2id$") and "correct horse" not in stored
    assert keys.password_matches(stored, "correct horse")
    assert not keys.password_matches(stored, "correct hors")
    assert not keys.password_matches(None, "correct horse")  # no account: never a match
    assert not keys.password_matches("not a hash", "x")


def test_transfer_codes_read_as_typed() -> None:
    code = keys.new_transfer_code()
    assert len(code) == 10 and set(code) <= set(keys.TRANSFER_ALPHABET)
    spaced = f"{code[:5].lower()}-{code[5:]}"
    assert keys.transfer_hash(spaced) == keys.transfer_hash(code)
    assert keys.key_hash(code) != keys.transfer_hash(code)


# ---------------------------------------------------------------------- ratings
def test_rating_classes() -> None:
    assert rating_class("cards", 2) == "cards-2"
    assert rating_class("cards", 5) == "cards-multi"
    assert rating_class("board", 2) == "dice-2"
    assert rating_class("board", 3) == "dice-3"
    assert rating_class("nim", 2) is None


def test_every_offered_bot_has_a_measured_rating_in_order_of_strength() -> None:
    for entry in CARD_BOTS.entries.values():
        if entry.offered:
            assert entry.name in CARD_BOT_SHARES
    for entry in BOARD_BOTS.entries.values():
        assert entry.name in BOARD_BOT_ELO
    assert bot_mu("cards", "memory") == pytest.approx(MU)
    assert bot_mu("board", "alphabeta") == pytest.approx(MU)
    assert bot_mu("cards", "easy") < bot_mu("cards", "memory") < bot_mu("cards", "deep")
    assert bot_mu("board", "greedy") < bot_mu("board", "alphabeta") < bot_mu("board", "native")


def test_a_win_against_a_bot_raises_a_player_and_leaves_the_bot() -> None:
    bot = Rating(bot_mu("cards", "memory"), 1.0)
    new, same = rate([Entrant(1, Rating(), False), Entrant(2, bot, True)])
    assert new.mu > MU and new.sigma < Rating().sigma and new.games == 1
    assert same == bot
    lost, _ = rate([Entrant(2, Rating(), False), Entrant(1, bot, True)])
    assert lost.mu < MU
    assert shown(new.mu, new.sigma) > shown(lost.mu, lost.sigma)


def test_beating_a_strong_bot_is_worth_more_than_beating_a_weak_one() -> None:
    strong = rate([Entrant(1, Rating(), False),
                   Entrant(2, Rating(bot_mu("cards", "deep"), 1.0), True)])[0]
    weak = rate([Entrant(1, Rating(), False),
                 Entrant(2, Rating(bot_mu("cards", "easy"), 1.0), True)])[0]
    assert strong.mu > weak.mu


def test_places_lower_totals_win_ties_share_and_forfeits_come_last() -> None:
    assert places([10, 3, 3], lower_wins=True) == [3, 1, 1]
    assert places([1, 0, 0], lower_wins=False) == [1, 2, 2]
    assert places([10, 3, 3], lower_wins=True, forfeits=frozenset({1})) == [2, 3, 1]


def test_which_tables_are_rated() -> None:
    def people(*ids: str | None, moved: bool = True, origins: tuple[str | None, ...] = ()
               ) -> list[Person]:
        return [Person(i, moved, origins[n] if origins else f"o{n}")
                for n, i in enumerate(ids)]

    assert unrated(True, people("_a", "_b")) is None
    assert unrated(True, people("_a")) is None                       # a player and bots
    assert unrated(True, people("_a", "_b", origins=(None, None))) is None  # made before
    assert unrated(False, people("_a", "_b")) == "casual"
    assert unrated(True, people("_a", "_a")) == "one player held two seats"
    assert unrated(True, people("_a", None)) == "a seat was taken without a player"
    assert unrated(True, []) == "no player at the table"
    # a seat that never played (its bot moved for it from the start): void for everyone
    assert unrated(True, [Person("_a", True, "x"), Person("_b", False, "y")]) \
        == "a player never made a move"
    assert unrated(True, people("_a", moved=False)) == "a player never made a move"
    # one person's throwaway identities, made from one address
    assert unrated(True, people("_a", "_b", origins=("x", "x"))) \
        == "two players' identities were made on one network"


def test_the_fill_bot_is_the_one_nearest_the_players() -> None:
    levels = ["easy", "memory", "deep"]
    assert nearest_bot("cards", levels, MU) == "memory"
    assert nearest_bot("cards", levels, 40.0) == "deep"
    assert nearest_bot("cards", levels, 0.0) == "easy"


# ---------------------------------------------------------------------- pairing
def entry(ticket: str, player: str | None = None, sizes: tuple[int, ...] = (2,), *,
          joined: float = 0.0, fill_at: float = 15.0, address: str | None = None,
          variant: str = "house", rated: bool = True, game: str = "cards") -> Entry:
    return Entry(ticket=ticket, player=player or f"_{ticket}", name=ticket,
                 token_hash="h" + ticket, address=address or ticket, game=game,
                 variant=variant, sizes=sizes, rated=rated, joined=joined, fill_at=fill_at,
                 mu=MU)


def test_two_players_of_one_kind_are_paired_at_once() -> None:
    groups = form([entry("a"), entry("b", joined=1.0)], now=2.0)
    assert [[e.ticket for e in g.entries] for g in groups] == [["a", "b"]]
    assert groups[0].size == 2 and groups[0].rated


def test_different_kinds_never_meet() -> None:
    assert form([entry("a"), entry("b", variant="rulebook")], now=2.0) == []
    assert form([entry("a"), entry("b", rated=False)], now=2.0) == []
    assert form([entry("a"), entry("b", sizes=(3,))], now=2.0) == []


def test_a_player_waits_then_sits_with_bots() -> None:
    alone = [entry("a", sizes=(3,))]
    assert form(alone, now=14.9) == []
    groups = form(alone, now=15.0)
    assert len(groups) == 1 and groups[0].size == 3 and len(groups[0].entries) == 1


def test_any_size_pairs_at_the_size_that_fills() -> None:
    groups = form([entry("a", sizes=(2, 3, 4)), entry("b", sizes=(2, 3, 4), joined=1),
                   entry("c", sizes=(3,), joined=2)], now=3.0)
    assert len(groups) == 1 and groups[0].size == 3
    assert sorted(e.ticket for e in groups[0].entries) == ["a", "b", "c"]


def test_one_player_is_never_seated_twice() -> None:
    groups = form([entry("a", player="_p"), entry("b", player="_p", joined=1)], now=2.0)
    assert groups == []


def test_two_people_of_one_address_sit_together_casually() -> None:
    groups = form([entry("a", address="x"), entry("b", address="x", joined=1)], now=2.0)
    assert len(groups) == 1 and not groups[0].rated


def test_the_dummy_hash_is_checked_like_a_real_one() -> None:
    """A sign-in to a name without a password verifies the dummy hash, which must cost what a
    real verification costs: the hasher's current parameters, so no rehash is due."""
    from argon2 import PasswordHasher

    assert not PasswordHasher().check_needs_rehash(keys._DUMMY)


def test_provisional_players_move_no_one_else() -> None:
    assert not established(Rating(games=4), 3, games=5, distinct=3)
    assert not established(Rating(games=9), 2, games=5, distinct=3)
    assert established(Rating(games=5), 3, games=5, distinct=3)
    # a newcomer against an established player: the newcomer's rating only
    assert booked(["_new", "_old"], {"_old"}) == {"_new"}
    # two newcomers: neither (one person's throwaways cannot lift each other)
    assert booked(["_a", "_b"], set()) == set()
    # alone with bots (always established): counted, provisional or not
    assert booked(["_new"], set()) == {"_new"}
    assert booked(["_a", "_b", "_c"], {"_a", "_b"}) == {"_c"}


def test_what_is_kept_of_an_address() -> None:
    # one IPv6 /64 is one network; IPv4, and IPv4 written as IPv6, are the address itself
    assert keys.network("2001:db8:1:2::5") == keys.network("2001:db8:1:2:ffff::9") \
        == "2001:db8:1:2::/64"
    assert keys.network("2001:db8:1:3::5") != keys.network("2001:db8:1:2::5")
    assert keys.network("::ffff:10.0.0.7") == keys.network("10.0.0.7") == "10.0.0.7"
    assert keys.address_hash("2001:db8:1:2::5") == keys.address_hash("2001:db8:1:2::6")
    # the stored origin is 16 bits: it cannot be read back to one address
    assert len(keys.origin("10.0.0.7")) == 4
    assert keys.origin("10.0.0.7") == keys.origin("::ffff:10.0.0.7")
    seen = {keys.origin(f"10.0.{i // 256}.{i % 256}") for i in range(4096)}
    assert len(seen) > 3500  # different networks almost never share one
