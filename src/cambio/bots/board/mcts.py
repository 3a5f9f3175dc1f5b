"""``mcts``: Monte Carlo tree search (UCT) with uniformly random playouts.

Each node keeps the visit count and, per seat, the reward collected through it; the seat
moving at a node picks the child that is best *for that seat* (max-n flavour, so it
works for 3 players unchanged). Rewards: the winners of a game share 1 (a tie gives 1/2
each); a draw gives every seat 1/players. A playout that reaches ``playout_plies`` is
scored as a draw. The move played is the root's most visited child.
"""

from __future__ import annotations

import math
from random import Random

from cambio.board import PASS, Board, Geometry
from cambio.board.bitboard import Owners, completed, judge, legal_pushes, push
from cambio.board.rules import OtherLine
from cambio.shares import tie_share

from .base import RandomSetupChoices


class _Node:
    __slots__ = ("children", "owners", "rewards", "terminal", "turn", "untried", "visits")

    def __init__(self, owners: Owners, turn: int, players: int,
                 terminal: tuple[float, ...] | None, g: Geometry, rng: Random) -> None:
        self.owners = owners
        self.turn = turn
        self.terminal = terminal
        self.visits = 0
        self.rewards = [0.0] * players
        self.children: dict[int, _Node] = {}
        if terminal is None:
            moves = legal_pushes(owners, turn, g) or [PASS]
            rng.shuffle(moves)
            self.untried = moves
        else:
            self.untried = []


def _rewards(winners: tuple[int, ...], players: int) -> tuple[float, ...]:
    return tuple(tie_share(p, winners, players) for p in range(players))


class MCTSBot(RandomSetupChoices):
    """UCT with random playouts under an iteration budget."""

    def __init__(self, iterations: int = 300, seed: int = 0, exploration: float = 1.4,
                 playout_plies: int = 60) -> None:
        self.iterations = iterations
        self.exploration = exploration
        self.playout_plies = playout_plies
        self.rng = Random(seed)
        self.name = f"mcts:{iterations}"

    def choose(self, board: Board) -> int:
        moves = board.legal_moves()
        if len(moves) == 1:
            return moves[0]
        g = board.g
        players = board.rules.players
        rule = board.rules.other_line
        rng = self.rng
        root = _Node(board.owners, board.turn, players, None, g, rng)
        c = self.exploration
        for _ in range(self.iterations):
            node = root
            path = [root]
            while not node.untried and node.terminal is None:
                log_n = math.log(node.visits)
                me = node.turn
                node = max(node.children.values(),
                           key=lambda ch: ch.rewards[me] / ch.visits
                           + c * math.sqrt(log_n / ch.visits))
                path.append(node)
            if node.terminal is None:
                m = node.untried.pop()
                child_owners = push(node.owners, m, node.turn, g)
                lines = completed(child_owners, g, m)
                term = _rewards(judge(lines, node.turn, rule), players) if lines else None
                child = _Node(child_owners, (node.turn + 1) % players, players, term, g, rng)
                node.children[m] = child
                node = child
                path.append(node)
            result = node.terminal if node.terminal is not None else self._playout(
                node.owners, node.turn, players, g, rule)
            for n in path:
                n.visits += 1
                for p in range(players):
                    n.rewards[p] += result[p]
        return max(root.children.items(), key=lambda kv: kv[1].visits)[0]

    def _playout(self, owners: Owners, turn: int, players: int, g: Geometry,
                 rule: OtherLine) -> tuple[float, ...]:
        rng = self.rng
        leave = g.leave
        four_n = 4 * g.n
        for _ in range(self.playout_plies):
            others = 0
            for p, b in enumerate(owners):
                if p != turn:
                    others |= b
            moves = [m for m in range(four_n) if not leave[m] & others]
            if moves:
                m = moves[rng.randrange(len(moves))]
                owners = push(owners, m, turn, g)
                lines = completed(owners, g, m)
                if lines:
                    return _rewards(judge(lines, turn, rule), players)
            turn = (turn + 1) % players
        return _rewards((), players)
