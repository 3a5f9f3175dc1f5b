"""Every rule of the ``cabo`` and ``cambia`` presets (docs/rules.md cites their sources).

Each test breaks when its rule does: a preset with the rule's field switched back to the
Cambio presets' value plays the same moves differently, and the tests say which way.
"""

from __future__ import annotations

from itertools import combinations

import pytest

from cambio.cards import EMPTY, EndReason, IllegalActionError, Rules, RulesError, State, observe
from cambio.cards.actions import Kind, exchange_slots, kind_of, parse_action
from cambio.cards.cards import card_code, parse_card
from cambio.cards.events import Discarded, Event
from cambio.cards.match import Match
from cambio.cards.rules import CABO_FIRST_EDITION, PRESETS

from .scenario import deck, play


def c(code: str) -> int:
    return parse_card(code)


def state(preset: str, grids: list[str], draws: str = "", **overrides: object) -> State:
    rules = Rules.preset(preset, **overrides)
    return State(rules, len(grids), deck=[c(x) for x in deck(grids, draws)], polled=False)


def run(s: State, moves: str) -> State:
    for line in moves.strip().splitlines():
        seat, action = line.split(" ", 1)
        s.play(action, int(seat))
    return s


def first_edition(**more: object) -> Rules:
    return Rules.preset("cabo", **CABO_FIRST_EDITION, **more)


G = ["2C 3C 4C 5C", "2D 3D 4D 5D"]


# ------------------------------------------------------------------------------ the deck
def test_cabo_deck_is_two_zeros_four_of_one_to_twelve_two_thirteens():
    cards = Rules.preset("cabo").deck_cards(4)
    assert len(cards) == 52
    values = sorted(Rules.preset("cabo").value(x) for x in cards)
    assert values == sorted([0, 0, 13, 13] + [v for v in range(1, 13) for _ in range(4)])
    assert sorted(card_code(x) for x in cards if x >> 2 in (0, 13)) == ["KC", "KS", "XB", "XR"]


def test_cabo_plays_one_deck_whatever_the_table():
    assert len(Rules.preset("cabo", max_players=None).deck_cards(12)) == 52
    assert len(Rules.preset("rulebook").deck_cards(12)) == 162


def test_cabo_deck_has_no_red_thirteen():
    with pytest.raises(Exception, match="KD"):
        state("cabo", ["KD 2C 3C 4C", G[1]])


@pytest.mark.parametrize("grids,expected", [
    (["XB AC JC QC", "KS 7D 9D TD"], [24, 39]),
])
def test_cabo_card_values(grids, expected):
    assert state("cabo", grids).card_totals() == expected


def test_cambia_card_values():
    s = state("cambia", ["KH XB AC JC", "QC KS 7D TD"])
    assert s.card_totals() == [11, 42]


# --------------------------------------------------------------------------- players
@pytest.mark.parametrize("preset,most", [("cabo", 4), ("cambia", 6)])
def test_most_players(preset, most):
    Rules.preset(preset).check_players(most)
    with pytest.raises(RulesError):
        Rules.preset(preset).check_players(most + 1)


def test_cabo_first_edition_seats_five():
    first_edition().check_players(5)


# ---------------------------------------------------------------------------- the turn
def test_cabo_may_take_from_the_pile_cambia_may_not():
    moves = "0 draw\n0 discard"
    s = run(state("cabo", G, "6H 6S"), moves)
    assert parse_action("take") in s.legal_actions(1)
    s = run(state("cambia", G, "6H 6S"), moves)
    assert parse_action("take") not in s.legal_actions(1)


@pytest.mark.parametrize("preset", ["cabo", "cambia"])
def test_powers_fire_only_when_drawn_and_discarded(preset):
    s = run(state(preset, ["7C 3C 4C 5C", G[1]], "2H"), "0 draw\n0 swap 0")
    assert s.current_player() == 1 and s.phase == 0  # the swapped-out 7 fired nothing
    s = run(state(preset, G, "7H"), "0 draw\n0 discard")
    assert s.phase == 2  # a 7 drawn and discarded fires


@pytest.mark.parametrize("preset", ["cabo", "cambia"])
def test_powers_are_optional(preset):
    s = run(state(preset, G, "7H"), "0 draw\n0 discard")
    assert parse_action("skip") in s.legal_actions()


def test_cabo_eleven_twelve_swap_own_with_anothers_first_edition_any_two():
    s = run(state("cabo", G, "JH"), "0 draw\n0 discard")
    assert parse_action("switch 0.0 1.0") in s.legal_actions()
    assert parse_action("switch 1.0 1.1") not in s.legal_actions()
    s = State(first_edition(), 2, deck=[c(x) for x in deck(G, "JH")], polled=False)
    run(s, "0 draw\n0 discard")
    assert parse_action("switch 1.0 1.1") in s.legal_actions()


def test_cabo_thirteen_has_no_power():
    s = run(state("cabo", G, "KS"), "0 draw\n0 discard")
    assert s.phase == 0 and s.current_player() == 1


def test_cambia_kings_look_and_may_swap():
    s = run(state("cambia", G, "KS"), "0 draw\n0 discard")
    assert parse_action("look 0.0 1.0") in s.legal_actions()


# ---------------------------------------------------------------------------- snapping
def test_cabo_has_no_snapping():
    s = run(state("cabo", G, "2H"), "0 draw\n0 discard")
    assert not any(kind_of(a) == Kind.SNAP for a in s.legal_actions(1))
    with pytest.raises(IllegalActionError):
        s.play("snap 1.0", 1)


def test_cambia_snaps_only_your_own_cards():
    s = run(state("cambia", G, "2H"), "0 draw\n0 discard")
    snaps = {a for a in s.legal_actions(1) if kind_of(a) == Kind.SNAP}
    assert parse_action("snap 1.0") in snaps and parse_action("snap 0.0") not in snaps


def test_cambia_wrong_snap_costs_two_cards():
    s = run(state("cambia", G, "9H 6H 6S"), "0 draw\n0 discard\n0 skip\n1 snap 1.1")
    assert s.card_counts() == [4, 6]


def test_cambia_locks_the_callers_hand():
    s = run(state("cambia", G, "9H"), "0 cambio\n1 draw\n1 discard")
    assert not any(a >> 5 >> 8 == 0 for a in s.legal_actions() if kind_of(a) == Kind.PEEK)


# ------------------------------------------------------------------- multi-card exchange
def test_cabo_exchanges_several_equal_cards_at_once():
    s = run(state("cabo", ["4C 4H 9C 5C", G[1]], "AH"), "0 draw\n0 exchange 0 1")
    assert s.grids[0] == [c("AH"), EMPTY, c("9C"), c("5C")]
    assert [card_code(x) for x in s.pile] == ["4C", "4H"]


def test_cabo_offers_every_exchange_of_two_to_four_occupied_slots_zeros_included():
    """Every set of 2, 3 and 4 occupied slots, the 0s' slots too (the black joker is card
    code 0), and four equal cards exchanged at once leave one card in the grid."""
    s = run(state("cabo", ["XB XR 4C 4H", G[1]], "AH"), "0 draw")
    offered = {tuple(exchange_slots(a)) for a in s.legal_actions() if kind_of(a) == Kind.EXCHANGE}
    assert offered == {tuple(x) for n in (2, 3, 4) for x in combinations(range(4), n)}
    s = run(state("cabo", ["6C 6H 6D 6S", G[1]], "AH"), "0 draw\n0 exchange 0 1 2 3")
    assert s.grids[0] == [c("AH"), EMPTY, EMPTY, EMPTY] and len(s.pile) == 4
    s = run(state("cabo", ["XB XR 9C 5C", G[1]], "AH"), "0 draw\n0 exchange 0 1")
    assert s.grids[0] == [c("AH"), EMPTY, c("9C"), c("5C")]


def test_exchange_is_not_offered_without_the_rule():
    s = run(state("rulebook", ["4C 4H 9C 5C", G[1]], "AH"), "0 draw")
    assert not any(kind_of(a) == Kind.EXCHANGE for a in s.legal_actions())


def test_cabo_mismatched_exchange_keeps_all_face_up_and_the_drawn_card():
    s = run(state("cabo", ["4C 6H 9C 5C", G[1]], "AH"), "0 draw\n0 exchange 0 1")
    assert s.grids[0] == [c("4C"), c("6H"), c("9C"), c("5C"), c("AH")]
    seen = observe(s, 1).grids[0]
    assert seen[0] == c("4C") and seen[1] == c("6H") and seen[4] == c("AH")
    assert s.pile == []


def test_cabo_first_edition_mismatch_returns_them_and_discards_the_drawn_card():
    s = State(first_edition(), 2, deck=[c(x) for x in deck(["4C 6H 9C 5C", G[1]], "AH")],
              polled=False)
    run(s, "0 draw\n0 exchange 0 1")
    assert s.grids[0] == [c("4C"), c("6H"), c("9C"), c("5C")]
    assert s.pile == [c("AH")]
    assert observe(s, 1).grids[0][1] == c("6H")


def test_first_edition_mismatch_discards_the_drawn_card_by_its_drawer_and_fires_nothing():
    s = State(first_edition(), 2, deck=[c(x) for x in deck(["4C 6H 9C 5C", G[1]], "7H")],
              polled=False)
    run(s, "0 draw")
    events: list[Event] = []
    s.play("exchange 0 1", 0, events)
    assert s.pile == [c("7H")] and s.phase == 0 and s.current_player() == 1  # no peek
    thrown = [e for e in events if isinstance(e, Discarded)]
    assert [(e.seat, e.card, e.slot) for e in thrown] == [(0, c("7H"), -1)]


def test_an_exchange_ends_the_turn_with_the_top_cards_power_where_replaced_cards_fire():
    """With the rulebook's trigger (the card put on the pile at the end of the turn fires,
    drawn or replaced) and exchanges allowed, two 7s exchanged fire the top 7's peek for the
    exchanging seat."""
    s = state("rulebook", ["7C 7H 9C 5C", G[1]], "AH", multi_exchange=True)
    run(s, "0 draw\n0 exchange 0 1")
    assert s.phase == 2 and s.current_player() == 0
    assert parse_action("peek 0.0") in s.legal_actions()


def test_exchange_record_round_trips():
    play("cabo", ["4C 4H 9C 5C", G[1]], "AH",
         "0 draw card=AH\n0 exchange 0 1 discarded=4C,4H")


# ------------------------------------------------------------------------ the round's end
def _draw_and_discard(s: State, times: int) -> None:
    for _ in range(times):
        s.play("draw")
        s.play("discard")
        if s.phase == 2:  # a power fired: skip it
            s.play("skip")


def test_cabo_round_ends_when_the_deck_runs_out():
    s = state("cabo", G)
    _draw_and_discard(s, 52 - 8)
    assert s.is_over() and s.end_reason == EndReason.DECK_EXHAUSTED and s.reshuffles == 0


def test_cabo_first_edition_reshuffles_the_pile():
    s = State(first_edition(), 2, deck=[c(x) for x in deck(G)], polled=False)
    _draw_and_discard(s, 52 - 8 + 1)
    assert not s.is_over() and s.reshuffles == 1


def _called(preset_or_rules: str | Rules, grids: list[str]) -> State:
    rules = preset_or_rules if isinstance(preset_or_rules, Rules) else Rules.preset(
        preset_or_rules)
    s = State(rules, 2, deck=[c(x) for x in deck(grids, "6H 6S")], polled=False)
    return run(s, "0 cambio\n1 draw\n1 discard")


def test_cabo_lowest_caller_scores_zero():
    s = _called("cabo", ["AC AD 2C 2D", "9C 9D 8C 8D"])
    assert s.is_over() and s.scores() == [0, 34]


def test_cabo_caller_tied_for_lowest_scores_zero():
    s = _called("cabo", ["AC AD 2C 2D", "AH AS 2H 2S"])
    assert s.scores() == [0, 6] and s.winners() == [0]


def test_cabo_failed_call_costs_ten_first_edition_five():
    grids = ["9C 9D 8C 8D", "AC AD 2C 2D"]
    assert _called("cabo", grids).scores() == [44, 6]
    assert _called(first_edition(), grids).scores() == [39, 0]  # the lowest scores 0


def test_cabo_kamikaze_scores_zero_for_its_holder_fifty_for_the_others():
    s = _called("cabo", ["AC AD 2C 2D", "QC QD KC KS"])
    assert s.scores() == [50, 0] and s.winners() == [1]


def test_kamikaze_needs_exactly_that_hand():
    s = _called("cabo", ["AC AD 2C 2D", "QC JD KC KS"])
    assert s.scores() == [0, 49]


def test_a_zero_beside_the_kamikaze_cards_is_not_the_kamikaze_hand():
    """Two 12s and two 13s with a 0 kept face up after a mismatched exchange: five cards,
    not the hand, so they score as cards."""
    s = State(Rules.preset("cabo"), 2,
              deck=[c(x) for x in deck(["QC KC QD KS", "AH AS 2H 2S"], "XB 6H 6S")],
              polled=False)
    run(s, "0 draw\n0 exchange 0 1\n1 cambio\n0 draw\n0 discard")
    assert sorted(s.grids[0]) == sorted(c(x) for x in ("QC", "KC", "QD", "KS", "XB"))
    assert s.is_over() and s.scores() == [50, 0]


LOW, HIGH = "AC AD 2C 2D", "9C 9D 8C 8D"


@pytest.mark.parametrize("preset,overrides,grids,expected", [
    ("rulebook", {"failed_call_penalty": 10}, [HIGH, LOW], [44, 6]),
    ("rulebook", {"failed_call_penalty": 1}, [HIGH, LOW], [35, 6]),
    ("rulebook", {"round_zero": "caller_if_lowest"}, [LOW, HIGH], [0, 34]),
    ("rulebook", {"round_zero": "lowest"}, [HIGH, LOW], [34, 0]),
    ("cabo", {"kamikaze": "off"}, [HIGH, LOW], [44, 6]),
    ("cabo", {"failed_call_penalty": 0}, [LOW, HIGH], [0, 34]),
    ("cabo", {"failed_call_penalty": 0, "round_zero": "nobody"}, [LOW, "QC QD KC KS"], [50, 0]),
])
def test_each_scoring_rule_applies_without_the_others(preset, overrides, grids, expected):
    """The failed-call penalty, the zero for the lowest and the kamikaze hand each score on
    their own: a table may take one of Cabo's scoring rules without the rest."""
    assert _called(Rules.preset(preset, **overrides), grids).scores() == expected


SCORED = [("cabo", {}, ["AC AD 2C 2D", "QC QD KC KS"]),
          ("cabo", {}, ["AC AD 2C 2D", "QC JD KC KS"]),
          ("cabo", {}, ["AC AD 2C 2D", "AH AS 2H 2S"]),
          ("cabo", {}, [HIGH, LOW]), ("cabo", CABO_FIRST_EDITION, [HIGH, LOW]),
          ("cabo", {"kamikaze_holder": -5, "kamikaze_others": 30}, [LOW, "QH QS KS KC"]),
          ("rulebook", {"failed_call_penalty": 10}, [HIGH, LOW]),
          ("rulebook", {"round_zero": "lowest"}, [HIGH, LOW]),
          ("cambia", {}, ["AC AD 2C 2D", "AH AS 2H 2S"]),
          ("evan", {}, ["AC AD 2C 2D", "AH AS 2H 2S"])]


@pytest.mark.parametrize("preset,overrides,grids", SCORED)
def test_the_batch_engine_scores_every_scoring_rule_as_the_engine(preset, overrides, grids):
    """The kamikaze hand, the failed call, the zero for the lowest and the tie rules, scored
    by the batch kernels: the called rounds above, each started in a batch row and played
    with the same actions, end with the engine's scores and winners."""
    from cambio.bots.cards.rollouts import load_state
    from cambio.cards.batch import Batch

    rules = Rules.preset(preset, **overrides)
    s = State(rules, 2, deck=[c(x) for x in deck(grids, "6H 6S")])
    b = Batch(rules, 2, 1)
    load_state(b, 0, s)
    for seat, text in ((0, "cambio"), (1, "draw"), (1, "discard")):  # the last turn ends it
        b.step([s.play(text, seat)])
    assert s.is_over() and b.is_over()[0]
    assert b.scores()[0].tolist() == s.scores()
    assert [p for p in range(2) if b.winners()[0, p]] == sorted(s.winners())


def test_cambia_caller_wins_ties():
    s = _called("cambia", ["AC AD 2C 2D", "AH AS 2H 2S"])
    assert s.scores() == [6, 6] and s.winners() == [0]
    s = _called("rulebook", ["AC AD 2C 2D", "AH AS 2H 2S"])
    assert s.winners() == [0, 1]


def test_cambia_turn_cap_is_three_hundred():
    assert Rules.preset("cambia").max_turns == 300


# ------------------------------------------------------------------------------- matches
def _match_totals(rules: Rules, rounds: list[list[int]]) -> Match:
    """A match fed round scores directly: its arithmetic, not a round's play (the golden
    match in test_match.py plays the rounds)."""
    m = Match(rules, 2, rounds=None)
    for scores in rounds:
        m.round_scores.append(scores)
        m.round_winners.append([0])
        m.totals = [t + s for t, s in zip(m.totals, scores, strict=True)]
        m._reset_exact_hits()
    return m


def test_cabo_match_resets_an_exact_hundred_to_fifty_once():
    m = _match_totals(Rules.preset("cabo"), [[60, 10], [40, 10]])
    assert m.totals == [50, 20] and not m.is_over()
    m = _match_totals(Rules.preset("cabo"), [[60, 10], [40, 10], [50, 10]])
    assert m.totals == [100, 30] and not m.is_over()  # the one reset is spent
    m = _match_totals(Rules.preset("cabo"), [[60, 10], [40, 10], [50, 10], [1, 0]])
    assert m.is_over() and m.winners() == [1]


def test_cabo_first_edition_resets_without_limit():
    m = _match_totals(first_edition(), [[100, 0], [50, 0]])
    assert m.totals == [50, 0] and m.resets == [2, 0]


def test_a_target_without_a_reset_keeps_an_exact_hit():
    m = _match_totals(Rules.preset("rulebook", match_target=100), [[100, 0]])
    assert m.totals == [100, 0] and m.resets == [0, 0] and not m.is_over()


def test_a_match_of_set_rounds_ignores_the_rules_target():
    """A table of set rounds with Cabo's rules plays its rounds, not to 100; without a
    target in the rules, a match of set rounds never plays to one."""
    m = Match(Rules.preset("cabo"), 2, rounds=2)
    assert m.target is None and not m.passes
    m = Match(Rules.preset("rulebook"), 2, rounds=3)
    assert m.target is None and not m.passes
    m = Match(Rules.preset("rulebook"), 2, rounds=None, target=50)
    assert m.target == 50 and not m.passes


def test_a_match_to_a_target_ends_when_a_total_passes_it():
    m = _match_totals(Rules.preset("cabo"), [[99, 0]])
    assert not m.is_over()
    m = _match_totals(Rules.preset("cabo"), [[101, 0]])
    assert m.is_over()


def test_mismatched_exchange_record_round_trips():
    play("cabo", ["4C 6H 9C 5C", G[1]], "AH",
         "0 draw card=AH\n0 exchange 0 1 revealed=4C,6H penalty=AH")


# ------------------------------------------------------------- the batch engine and its bots
@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_the_batch_engine_plays_every_preset(preset):
    """cabo's deck, scoring and exchanges, cambia's own-card snaps, evan's queen and every
    tie rule are in the kernels (tests/cards/test_batch.py plays them against the compiled
    engine)."""
    from cambio.cards.batch import Batch, kernel_blockers, kernels_can_play

    assert kernels_can_play(Rules.preset(preset)) and not kernel_blockers(Rules.preset(preset))
    for tie in ("all_tied_win", "most_cards_then_not_caller", "caller_wins_ties", "not_caller"):
        assert kernels_can_play(Rules.preset(preset, tie_rule=tie))
    assert kernels_can_play(Rules.preset(preset, **CABO_FIRST_EDITION, snap_others=False,
                                         power_queen="look_any_one_swap_any_two"))
    Batch(Rules.preset(preset, match_target=100), 2, 4)  # the match fields are no bar


@pytest.fixture
def kernel_less(monkeypatch):
    """A field the kernels would not read (none is left today): the refusal and the
    fallbacks still stand for a rule added without its kernel."""
    from cambio.cards import batch

    monkeypatch.setattr(batch, "KERNEL_LESS_FIELDS", ("kamikaze",))


def test_the_batch_engine_refuses_rules_its_kernels_cannot_play(kernel_less):
    from cambio.cards.batch import Batch, BatchRulesError

    with pytest.raises(BatchRulesError, match="compiled engine") as err:
        Batch(Rules.preset("cabo"), 2, 4)
    assert isinstance(err.value, RulesError)
    Batch(Rules.preset("rulebook", match_target=100), 2, 4)


def test_sim_plays_such_rules_on_the_compiled_engine(kernel_less):
    from cambio.sim.cards import SimConfig, choose_engine

    cabo = SimConfig(Rules.preset("cabo"), 2, ("memory", "memory"), 4, 1, None)
    assert choose_engine(cabo, "auto") == "python"
    with pytest.raises(ValueError, match="kamikaze"):
        choose_engine(cabo, "batch")
    for preset in ("rulebook", "cambia", "evan"):
        plain = SimConfig(Rules.preset(preset), 2, ("memory", "memory"), 4, 1, None)
        assert choose_engine(plain, "auto") == "batch"


def test_sim_plays_every_preset_on_the_batch_engine():
    from cambio.sim.cards import SimConfig, choose_engine

    for preset in PRESETS:
        plain = SimConfig(Rules.preset(preset), 2, ("memory", "memory"), 4, 1, None)
        assert choose_engine(plain, "auto") == "batch"


def test_hard_plays_such_rules_with_compiled_engine_rollouts(kernel_less):
    from cambio.bots.cards.base import play_round
    from cambio.bots.cards.deep import BatchRolloutSearchBot
    from cambio.bots.cards.memory import ExpectedPointsBot
    from cambio.bots.cards.registry import _deep

    hard = _deep("", 5)
    assert isinstance(hard, BatchRolloutSearchBot)
    s = play_round(State(Rules.preset("cabo"), 2, seed=11), [hard, ExpectedPointsBot(6)])
    assert s.is_over()
    assert hard._python_search is not None and hard._pool is None


# ------------------------------------------------------------------------------ evan
def test_evan_card_values():
    s = state("evan", ["KS KH AC JC", "QC XB 7D TD"])
    assert s.card_totals() == [34, 27]


def test_evan_jack_swaps_any_two_cards_unseen():
    s = run(state("evan", G, "JH"), "0 draw\n0 discard")
    assert parse_action("switch 1.0 1.1") in s.legal_actions()
    assert parse_action("skip") not in s.legal_actions()  # powers are not optional


def test_evan_queen_looks_at_one_card_then_swaps_any_two():
    s = run(state("evan", G, "QH"), "0 draw\n0 discard")
    assert parse_action("peek 0.1") in s.legal_actions()  # any card, own too
    assert parse_action("peek 1.2") in s.legal_actions()
    run(s, "0 peek 1.2")
    assert observe(s, 0).grids[1][2] == c("4D")
    assert parse_action("switch 1.0 1.1") in s.legal_actions()
    run(s, "0 switch 0.0 1.3")
    assert s.grids[0][0] == c("5D") and s.current_player() == 1


def test_evan_queen_power_differs_from_the_jacks_only_here():
    assert Rules.preset("rulebook").power_of(c("QH")) == Rules.preset("rulebook").power_of(
        c("JH"))
    assert Rules.preset("evan", power_queen=None).power_of(c("QH")).value == "swap_any"


def test_evan_kings_look_at_two_then_swap_any_two():
    s = run(state("evan", G, "KH"), "0 draw\n0 discard")
    assert parse_action("look 1.0 1.1") in s.legal_actions()


def test_evan_the_caller_may_not_snap_and_is_locked():
    s = run(state("evan", ["2C 3C 4C 5C", "2D 3D 4D 5D", "6H 6S 7C 7S"], "2H 9H"),
            "0 cambio\n1 draw\n1 discard")
    assert not any(kind_of(a) == Kind.SNAP for a in s.legal_actions(0))
    assert not any(kind_of(a) == Kind.SNAP and a >> 5 >> 8 == 0 for a in s.legal_actions(2))


def test_evan_only_the_snapper_snaps_again():
    s = run(state("evan", ["2C 3C 2S 5C", "2D 3D 4D 5D"], "2H"), "0 draw\n0 discard\n1 snap 1.0")
    assert any(kind_of(a) == Kind.SNAP for a in s.legal_actions(1))
    assert not any(kind_of(a) == Kind.SNAP for a in s.legal_actions(0))


def test_evan_a_tied_caller_loses_the_tie():
    s = _called("evan", ["AC AD 2C 2D", "AH AS 2H 2S"])
    assert s.winners() == [1]


def test_evan_others_tied_with_the_caller_share_the_win():
    rules = Rules.preset("evan")
    grids = ["AC AD 2C 2D", "AH AS 2H 2S", "3C 3D XB XR"]
    s = State(rules, 3, deck=[c(x) for x in deck(grids, "6H 6S 5H 4H")], polled=False)
    run(s, "0 draw\n0 discard\n1 draw\n1 discard\n2 cambio\n0 draw\n0 discard\n"
           "1 draw\n1 discard")
    assert s.is_over() and s.scores() == [6, 6, 6] and s.winners() == [0, 1]


# ------------------------------------------------------------------------------- records
@pytest.mark.parametrize("preset", ["cabo", "cambia", "evan"])
def test_a_bot_round_of_each_preset_records_and_replays(preset):
    from cambio.bots.cards.base import play_round
    from cambio.bots.cards.memory import ExpectedPointsBot
    from cambio.records.cards import make_header, record_text, replay
    from cambio.records.jsonl import parse_record

    rules = Rules.preset(preset)
    kinds = set()
    for seed in range(6):
        s = play_round(State(rules, 3, seed=seed), [ExpectedPointsBot(seed + i) for i in range(3)])
        header = make_header(rules, 3, seed=seed, dealer=s.dealer)
        assert header["rules"]["preset"] == preset
        text = record_text(header, s.history)
        again = replay(parse_record(text))
        assert again.state.grids == s.grids and again.state.scores() == s.scores()
        kinds |= {kind_of(a) for _, a in s.history}
    if preset == "cabo":
        assert Kind.EXCHANGE in kinds  # the memory bots do exchange cards


@pytest.mark.parametrize("reshuffle", [True, False])
def test_a_penalty_card_with_the_deck_empty_ends_the_round_without_reshuffling(reshuffle):
    s = State(Rules.preset("rulebook", reshuffle_pile=reshuffle, power_seven_eight="none",
                           power_nine_ten="none", power_jack_queen="none",
                           power_black_king="none", power_red_king="none"),
              2, seed=3, polled=False)
    while len(s.deck) > 1:
        s.play("draw")
        s.play("discard")
    s.play("draw")  # the last card: the deck is empty, the pile holds the rest
    top = s.pile[-1] >> 2
    other = 1 - s.current_player()
    wrong = next(i for i, card in enumerate(s.grids[other]) if card >= 0 and card >> 2 != top)
    s.play(f"snap {other}.{wrong}", other)
    if reshuffle:
        assert not s.is_over() and s.reshuffles == 1
    else:
        assert s.is_over() and s.end_reason == EndReason.DECK_EXHAUSTED


def test_the_queens_own_power_reads_as_jack_apart_from_no_power():
    assert Rules.preset("rulebook", power_queen="none").power_of(c("QH")) == "none"
    assert Rules.preset("rulebook", power_queen="none").power_of(c("JH")) == "swap_own_other"
    assert Rules.preset("evan", power_queen="as_jack").power_queen is None
    r = Rules.preset("evan", power_queen=None)
    assert Rules.from_json(r.to_json()) == r
    for word in ("null", "", "As_Jack"):  # JSON's word, an empty --rule value, any case
        assert Rules.preset("evan", power_queen=word).power_queen is None
    with pytest.raises(RulesError):
        Rules.preset("rulebook", power_queen="fly")


def test_a_reset_needs_a_target_and_lies_from_zero_to_below_it():
    """``match_reset_to`` is refused (as a rules error) without ``match_target`` or outside
    0 .. target - 1; a reset to 0 is a rule a table may play."""
    with pytest.raises(RulesError, match="match_reset_to needs a match_target"):
        Rules.preset("cabo", match_target=None)
    with pytest.raises(RulesError, match="match_reset_to needs a match_target"):
        Rules.preset("rulebook", match_reset_to=50)
    for bad in (-1, 100):
        with pytest.raises(RulesError, match="must be below it"):
            Rules.preset("cabo", match_reset_to=bad)
    assert Rules.preset("cabo", match_reset_to=0).match_reset_to == 0
    assert Rules.preset("cabo", match_reset_to=99).match_reset_to == 99
    m = _match_totals(Rules.preset("cabo", match_reset_to=0), [[100, 10]])
    assert m.totals == [0, 10]


def test_a_match_may_allow_no_resets_but_not_fewer():
    """``match_resets=0`` is a reset rule that never fires (an exact hit stays); a negative
    count is refused."""
    m = _match_totals(Rules.preset("cabo", match_resets=0), [[100, 10]])
    assert m.totals == [100, 10] and m.resets == [0, 0]
    with pytest.raises(RulesError, match="match_resets must be at least 0"):
        Rules.preset("cabo", match_resets=-1)


def test_out_of_range_fields_say_their_bounds_and_whether_none_is_allowed():
    with pytest.raises(RulesError, match=r"^match_target must be between 1 and 10000 \(or none\)$"):
        Rules.preset("cabo", match_target=0)
    with pytest.raises(RulesError, match=r"^failed_call_penalty must be between -100 and 100$"):
        Rules.preset("cabo", failed_call_penalty=101)
    with pytest.raises(RulesError, match=r"^kamikaze_others must be between -200 and 200$"):
        Rules.preset("cabo", kamikaze_others=-201)
