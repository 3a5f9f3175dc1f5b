"""Board records: write -> replay round trips, and every kind of bad record is refused with
the line it is on."""

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cambio.board import Rules
from cambio.board.setup import quick_setup
from cambio.bots.board import make_bot, play_game, run_setup
from cambio.records.board import export, record_text, replay
from cambio.records.jsonl import RecordError, parse_record


def finished_game(players=2, seed=1, full=False):
    rules = Rules(players=players)
    bots = [make_bot("greedy", rules, seed + i) for i in range(players)]
    steps = []
    if full:
        setup = run_setup(rules, bots, seed)
        board, steps = setup.board(), setup.history
    else:
        board = quick_setup(rules, seed)
    return play_game(board, bots), steps


@pytest.mark.parametrize(("players", "full"), [(2, False), (3, False), (2, True), (3, True)])
def test_record_round_trip(players, full):
    board, steps = finished_game(players, 3, full)
    text = record_text(board, ["greedy"] * players, 3, steps)
    lines = text.splitlines()
    header = json.loads(lines[0])
    assert header["format"] == "cambio-record" and header["version"] == 1
    assert header["game"] == "board"
    result = replay(parse_record(text))
    assert result.board.position() == board.position()
    assert result.board.faces == board.faces
    s = result.summary()
    assert s["winners"] == list(board.outcome.winners)
    assert s["dice"] == board.counts()
    assert s["moves"] == len(board.move_stack)
    assert s["outcome"] == board.outcome.termination.value
    assert export(result, None) == text
    assert export(result, 0) == text  # nothing is hidden in the board game


def corrupt(text, line, new):
    rows = text.splitlines()
    rows[line - 1] = new
    return "\n".join(rows) + "\n"


def test_bad_records_name_the_line():
    board, steps = finished_game(2, 4, True)
    text = record_text(board, ["greedy", "greedy"], 4, steps)
    rows = text.splitlines()
    first_move = len(steps) + 2
    for new in ({"seat": 0, "move": "pass"},  # a pass while pushes are legal
                {"seat": 0, "move": "a9>"},  # no such cell
                {"seat": 0}, {"seat": "0", "move": "a1>"}):
        with pytest.raises(RecordError) as err:
            replay(parse_record(corrupt(text, first_move, json.dumps(new))))
        assert err.value.line == first_move
    with pytest.raises(RecordError) as err:  # wrong seat
        replay(parse_record(corrupt(text, first_move, json.dumps(
            {"seat": 1, "move": json.loads(rows[first_move - 1])["move"]}))))
    assert err.value.line == first_move and "turn" in err.value.reason
    with pytest.raises(RecordError) as err:  # a setup step out of place
        replay(parse_record(corrupt(text, 3, json.dumps({"setup": "symbol circle"}))))
    assert err.value.line == 3
    with pytest.raises(RecordError) as err:  # the wrong result
        replay(parse_record(corrupt(text, len(rows), json.dumps({"end": "line",
                                                                  "winners": [5]}))))
    assert err.value.line == len(rows)
    with pytest.raises(RecordError) as err:  # a move after the end
        replay(parse_record(text + json.dumps({"seat": 0, "move": "a1>"}) + "\n"))
    assert err.value.line == len(rows)  # the end event must be last
    header = json.loads(rows[0])
    for key, value in (("rules", {"size": 9}), ("start", "5/5 x"), ("faces", "99"),
                       ("symbols", ["moon", "sun"]), ("colour", "red"), ("players", ["a"])):
        bad = dict(header, **{key: value})
        with pytest.raises(RecordError) as err:
            replay(parse_record(corrupt(text, 1, json.dumps(bad))))
        assert err.value.line == 1, key
    with pytest.raises(RecordError) as err:  # the setup steps disagree with the start
        bad = dict(header, start="5/5/5/5/5 x")
        replay(parse_record(corrupt(text, 1, json.dumps(bad))))
    assert err.value.line == 1


def test_an_unfinished_game_replays():
    board = quick_setup(Rules(), 2)
    board.play(board.legal_moves()[0])
    result = replay(parse_record(record_text(board)))
    assert result.summary()["over"] is False and result.summary()["winners"] == []


@settings(max_examples=200, deadline=None)
@given(st.lists(st.one_of(
    st.fixed_dictionaries({"seat": st.integers(-1, 3), "move": st.text(max_size=5)}),
    st.fixed_dictionaries({"setup": st.text(max_size=12)}),
    st.fixed_dictionaries({"end": st.sampled_from(["line", "draw"]),
                           "winners": st.lists(st.integers(0, 2), max_size=2)}),
    st.dictionaries(st.text(max_size=4), st.integers(), max_size=2)), max_size=8))
def test_arbitrary_events_replay_or_raise_record_error(events):
    board = quick_setup(Rules(), 6)
    header = json.loads(record_text(board).splitlines()[0])
    text = "\n".join(json.dumps(x) for x in [header, *events]) + "\n"
    try:
        result = replay(parse_record(text))
    except RecordError as exc:
        assert 1 <= exc.line <= len(events) + 1
        return
    assert result.summary()["moves"] <= len(events)
