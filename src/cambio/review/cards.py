"""Review of a card round from one seat's eyes.

Every decision the seat made with more than one legal move is replayed to the moment it was
made, and from the seat's view there (:func:`cambio.cards.observe`; nothing else of the
state is read) the ``hard`` bot's search -- the native rollouts of
:class:`~cambio.bots.cards.deep.BatchRolloutSearchBot` -- values every alternative worth
comparing (``deep``'s candidates, plus, in a snap poll, passing and every snap of a card
the seat knows matches) with a larger budget than at the table. Each decision's search
gets its own seed derived from the review's, so the same record, seat and seed give the
same review, and two deals the seat cannot tell apart give the same review
(``tests/review/test_cards_review.py``).
"""

from __future__ import annotations

from random import Random

from cambio.bots.cards.deep import BatchRolloutSearchBot, candidates
from cambio.cards import CardView, Phase, State, action_text, card_code, observe
from cambio.cards.actions import (
    PASS,
    SNAP,
    SWAP,
    SWITCH,
    Action,
    addr_seat,
    addr_slot,
    arg_a,
    arg_b,
    kind_of,
)
from cambio.records.cards import Result, state_from_header
from cambio.records.jsonl import RecordError

from .labels import Decision, Option, Review

REVIEW_ROWS = 4096
"""Rollouts per reviewed decision: four times what ``hard`` spends at the table (1,024)."""


def review_round(result: Result, seat: int, *, rows: int = REVIEW_ROWS,
                 seed: int = 0) -> Review:
    """The review of ``seat``'s decisions in a replayed full record of a round."""
    if result.view is not None:
        raise RecordError(1, "a player's-eye record cannot be reviewed: replay needs the "
                             "full record")
    state = state_from_header(result.header)
    if not 0 <= seat < state.n:
        raise RecordError(1, f"seat {seat} is not in this round of {state.n} players")
    searcher = Searcher(rows)
    decisions: list[Decision] = []
    for i, step in enumerate(result.steps):
        if step.seat == seat:
            decision = review_decision(observe(state, seat), step.action, step=i,
                                       seed=seed * 1_000_003 + i, searcher=searcher)
            if decision is not None:
                decisions.append(decision)
        state.apply(step.action, step.seat)
    return Review("cards", seat, f"{rows} rollouts", seed, tuple(decisions))


class Searcher:
    """The search a review asks for each decision: one bot kept for its rollout pool,
    reseeded per decision so that a decision's values depend on its view and seed only."""

    def __init__(self, rows: int = REVIEW_ROWS) -> None:
        if rows < 16:
            raise ValueError("a review needs at least 16 rollouts per decision")
        self.rows = rows
        self.bot = BatchRolloutSearchBot(0, rows=rows)

    def values(self, view: CardView, cands: list[Action], seed: int) -> dict[Action, Option]:
        self.bot.rng = Random(seed)
        self.bot.search(view, cands)
        return {a: Option(action_text(a), e.win_share, e.score)
                for a, e in self.bot.last_estimates.items()}


def review_decision(view: CardView, chosen: Action, *, step: int = 0, seed: int = 0,
                    searcher: Searcher | None = None) -> Decision | None:
    """Every alternative of the decision ``view`` asked for, valued; ``None`` when there
    was nothing to compare (a single sensible move)."""
    if len(view.legal) < 2:
        return None
    cands = alternatives(view, chosen)
    if len(cands) < 2:
        return None
    values = (searcher or Searcher()).values(view, cands, seed)
    options = sorted(values.values(), key=lambda o: (-o.win, o.score or 0.0, o.action))
    return Decision(step, values[chosen], tuple(options), slips=tuple(slips(view, chosen)))


def alternatives(view: CardView, chosen: Action) -> list[Action]:
    """The moves compared with ``chosen`` (first): the ``hard`` bot's candidates, and in a
    snap poll passing and each snap of a card the seat knows matches the top card."""
    cands = candidates(view, chosen)
    if view.phase == Phase.POLL:
        extra = [PASS] if PASS in view.legal else []
        extra += [a for a in view.legal if kind_of(a) == SNAP and _known_match(view, a)]
        cands += [a for a in extra if a not in cands]
    return cands


def _known_match(view: CardView, action: Action) -> bool:
    card = _seen_card(view, arg_a(action))
    return card is not None and bool(view.discard) and card >> 2 == view.discard[-1] >> 2


def _seen_card(view: CardView, address: int) -> int | None:
    """The card at ``address`` if the view shows it."""
    grid = view.grids[addr_seat(address)]
    slot = addr_slot(address)
    card = grid[slot] if slot < len(grid) else -1
    return card if card >= 0 else None


def slips(view: CardView, chosen: Action) -> list[str]:
    """What ``chosen`` contradicts of the cards the seat had seen (from its view only)."""
    me = view.seat
    assert me is not None
    value = view.rules.value
    kind = kind_of(chosen)
    out: list[str] = []
    if kind == SWAP and view.held >= 0:
        mine = view.grids[me][arg_a(chosen)]
        if mine >= 0 and value(mine) < value(view.held):
            out.append(f"swapped out a known {card_code(mine)} for a higher "
                       f"{card_code(view.held)}")
    elif kind == SNAP and view.discard:
        card = _seen_card(view, arg_a(chosen))
        if card is not None and card >> 2 != view.discard[-1] >> 2:
            out.append(f"snapped a known {card_code(card)} that does not match "
                       f"{card_code(view.discard[-1])}")
    elif kind == SWITCH:
        a, b = arg_a(chosen), arg_b(chosen)
        if addr_seat(b) == me:
            a, b = b, a
        own, theirs = _seen_card(view, a), _seen_card(view, b)
        if addr_seat(a) == me and addr_seat(b) != me and own is not None \
                and theirs is not None and value(own) < value(theirs):
            out.append(f"gave away a known {card_code(own)} for a higher "
                       f"{card_code(theirs)}")
    return out


def replay_state(result: Result, steps: int) -> State:
    """The round's state after its first ``steps`` recorded moves (for callers that show a
    decision on the table)."""
    state = state_from_header(result.header)
    for step in result.steps[:steps]:
        state.apply(step.action, step.seat)
    return state


__all__ = ["REVIEW_ROWS", "Searcher", "alternatives", "replay_state", "review_decision",
           "review_round", "slips"]
