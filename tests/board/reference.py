"""A deliberately naive second implementation of the board game, for cross-checking.

Grids are lists of rows of ints (-1 neutral), moves are found by walking rows and columns
and lines by scanning every window cell by cell. It shares no code with ``cambio.board``
except nothing: it is slow and obvious on purpose, so that agreement means something.
"""

from __future__ import annotations

Grid = list[list[int]]  # grid[r][c], r = 0 is rank 1


def parse(position: str, n: int) -> tuple[Grid, int]:
    rows_text, side = position.split()[:2]
    grid: Grid = []
    for row in reversed(rows_text.split("/")):
        cells: list[int] = []
        for ch in row:
            if ch.isdigit():
                cells += [-1] * int(ch)
            else:
                cells.append("xos".index(ch))
        assert len(cells) == n
        grid.append(cells)
    return grid, "xos".index(side)


def moves(grid: Grid, me: int) -> list[tuple[str, Grid]]:
    """Every legal push as (text, new grid)."""
    n = len(grid)
    out = []
    for r in range(n):
        row = grid[r]
        if row[n - 1] in (-1, me):
            g = [list(x) for x in grid]
            g[r] = [me] + row[:-1]
            out.append((f"a{r + 1}>", g))
        if row[0] in (-1, me):
            g = [list(x) for x in grid]
            g[r] = row[1:] + [me]
            out.append((f"{chr(97 + n - 1)}{r + 1}<", g))
    for c in range(n):
        col = [grid[r][c] for r in range(n)]
        if col[n - 1] in (-1, me):
            g = [list(x) for x in grid]
            new = [me] + col[:-1]
            for r in range(n):
                g[r][c] = new[r]
            out.append((f"{chr(97 + c)}1^", g))
        if col[0] in (-1, me):
            g = [list(x) for x in grid]
            new = col[1:] + [me]
            for r in range(n):
                g[r][c] = new[r]
            out.append((f"{chr(97 + c)}{n}v", g))
    return out


def with_line(grid: Grid, k: int, players: int) -> list[int]:
    n = len(grid)
    found = set()
    for r in range(n):
        for c in range(n):
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                cells = [(r + i * dr, c + i * dc) for i in range(k)]
                if all(0 <= y < n and 0 <= x < n for y, x in cells):
                    owners = {grid[y][x] for y, x in cells}
                    if len(owners) == 1 and -1 not in owners:
                        found.add(owners.pop())
    return sorted(p for p in found if p < players)


def perft(grid: Grid, me: int, depth: int, k: int, players: int) -> int:
    if with_line(grid, k, players):
        return 0
    if depth == 0:
        return 1
    ms = moves(grid, me)
    nxt = (me + 1) % players
    if not ms:
        if all(not moves(grid, p) for p in range(players)):
            return 0
        return perft(grid, nxt, depth - 1, k, players)
    if depth == 1:
        return len(ms)
    return sum(perft(g, nxt, depth - 1, k, players) for _, g in ms)


def winners(before: Grid, me: int, text: str, k: int, players: int, rule: str) -> list[int]:
    """The winners after ``me`` plays ``text`` from ``before`` (empty if none)."""
    after = dict(moves(before, me))[text]
    lines = with_line(after, k, players)
    if rule == "owner" or not lines:
        return lines
    others = [p for p in lines if p != me]
    return others or lines
