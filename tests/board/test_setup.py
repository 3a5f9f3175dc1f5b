"""Setup: the published procedure as actions, and the quick seeded setup."""

from collections import Counter
from random import Random

import pytest

from cambio.board import Rules, SetupError, geometry
from cambio.board.setup import (
    CHANCE,
    SYMBOLS,
    Setup,
    faces_text,
    full_setup,
    over_full,
    quick_setup,
)

RULES = [Rules(), Rules(players=3), Rules(size=4), Rules(size=4, players=3), Rules(size=3),
         Rules(size=3, players=3)]


def check_start(board, rules):
    g = geometry(rules)
    assert board.counts() == list(rules.start_counts())
    for bits in board.owners:
        assert not bits & g.corners
        assert not over_full(bits, g, 2)
    assert board.outcome is None
    if board.faces is not None:
        for cell in range(g.cells):
            seat = board.cell(cell)
            if seat >= 0:
                assert board.faces[cell] == board.symbols[seat]
            else:
                assert board.faces[cell] not in board.symbols


@pytest.mark.parametrize("rules", RULES, ids=lambda r: f"{r.size}x{r.size}-{r.players}p")
def test_full_setup_meets_the_constraints(rules):
    for seed in range(40):
        setup = full_setup(rules, seed)
        check_start(setup.board(), rules)


def test_full_setup_on_5x5_follows_the_published_steps():
    for seed in range(30):
        setup = full_setup(Rules(), seed)
        steps = setup.history
        assert steps[0].startswith("roll ") and steps[1].startswith("exchange ")
        rolled = [int(c) for c in steps[0].split()[1] if c != "/"]
        kept = {s for s, _ in sorted(Counter(rolled).items(), key=lambda kv: (-kv[1], kv[0]))[:4]}
        exchanged = [int(c) for c in steps[1].split()[1] if c != "/"]
        assert set(exchanged) <= kept
        assert all(exchanged.count(s) >= 5 for s in kept)
        assert [s.split()[0] for s in steps[2:4]] == ["symbol", "symbol"]
        assert all(s.split()[0] in ("neutral", "own") for s in steps[4:])


@pytest.mark.parametrize("rules", RULES, ids=lambda r: f"{r.size}x{r.size}-{r.players}p")
def test_quick_setup_meets_the_constraints_and_is_seeded(rules):
    for seed in range(40):
        b = quick_setup(rules, seed)
        check_start(b, rules)
        again = quick_setup(rules, seed)
        assert (again.position(), again.faces) == (b.position(), b.faces)
    assert len({quick_setup(rules, s).position() for s in range(20)}) > 10


def test_steps_replay_to_the_same_start():
    for seed in range(10):
        setup = full_setup(Rules(), seed)
        again = Setup(Rules())
        for step in setup.history:
            again.apply(step)
        assert again.board().position() == setup.board().position()
        assert again.faces == setup.faces


def test_choices_belong_to_the_next_seat_and_bad_steps_change_nothing():
    rng = Random(4)
    setup = Setup(Rules())
    with pytest.raises(SetupError):
        setup.apply("symbol star")  # the dice have not been rolled
    with pytest.raises(SetupError):
        setup.apply("roll 12345/12345")
    with pytest.raises(SetupError):
        setup.apply("roll 12345/12345/12345/12345/12346")  # 6 is no symbol
    assert setup.history == []
    seen_choice = False
    while not setup.is_done():
        if setup.current_player() == CHANCE:
            setup.apply(setup.sample(rng))
            continue
        seen_choice = True
        assert setup.current_player() == (setup.adjusting + 1) % 2
        legal = setup.legal_actions()
        snapshot = (list(setup.owners), list(setup.faces), list(setup.history))
        for bad in ("own a1", "neutral z9", "fly c3", "own", "own b\u00b2", "own c\u2462"):
            if bad not in legal:
                with pytest.raises(SetupError):
                    setup.apply(bad)
        assert (list(setup.owners), list(setup.faces), list(setup.history)) == snapshot
        setup.apply(rng.choice(legal))
    assert seen_choice
    with pytest.raises(SetupError):
        setup.apply("own c3")


def test_exchange_may_only_turn_the_other_symbols():
    setup = Setup(Rules())
    setup.apply("roll 00000/11111/22222/33333/44445")
    # kept: 0,1,2,3 (5 each); the 4s and the 5 must be turned, nothing else.
    with pytest.raises(SetupError):
        setup.apply("exchange 10000/11111/22222/33333/00000")  # turned a kept die
    with pytest.raises(SetupError):
        setup.apply("exchange 00000/11111/22222/33333/44440")  # a 4 remains
    setup.apply("exchange 00000/11111/22222/33333/01230")
    assert setup.current_player() == CHANCE


def test_a_symbol_on_a_corner_is_not_chosen_while_another_is_free():
    setup = Setup(Rules())
    setup.apply("roll 00001/11111/22222/33333/20003")
    setup.apply("exchange 00001/11111/22222/33333/20003")
    # corners show 0, 1, 2, 3: every kept symbol is on a corner, so any may be taken...
    setup.apply("symbol circle")
    # ...and the corners showing it turn neutral at the end.
    setup.apply("symbol triangle")
    assert faces_text(setup.faces, 5).count("0") < 9
    corners = [setup.faces[c] for c in (0, 4, 20, 24)]
    assert SYMBOLS.index("circle") not in corners and SYMBOLS.index("triangle") not in corners
