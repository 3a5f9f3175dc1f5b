"""Players who come back: a lasting identity per browser, claimable with a
username and password; profiles with every game and its replay; OpenSkill ratings per game
and table size; and Play now, which pairs people waiting for the same kind of game and
fills the empty seats with bots near their rating.

- :mod:`.names`, :mod:`.keys` -- what a name may be; the secrets and how they are kept.
- :mod:`.directory` -- identity: new players, renames, claims, sign-in, transfer codes.
- :mod:`.ratings` -- the rating classes, bots' fixed ratings, which results count.
- :mod:`.results` -- what a finished game stores on its players' profiles.
- :mod:`.profiles` -- profiles and leaderboards as the API serves them.
- :mod:`.matching`, :mod:`.queue` -- Play now: who sits with whom, and the waiting room.
- :mod:`.service` -- the process's part (the REST endpoints are
  :mod:`cambio.server.players_api`).

SQL lives with the rest in :mod:`cambio.server.store.players_sql`.
"""
