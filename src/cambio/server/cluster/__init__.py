"""Several server processes (and machines) sharing the tables: ``cambio serve --redis URL
--database URL [--workers N]``.

Each table lives in exactly one process at a time, its **owner** (Colyseus's "one room, one
process"). Redis holds who owns what as leases that expire unless the owner renews them
(:mod:`.lease`), carries lobby changes and hand-overs between processes (:mod:`.bus`), and
tells any process where a table lives so a connection that reached the wrong one is passed
on (:mod:`.proxy`, :mod:`.front`). The shared store (PostgreSQL) holds every action; a
process that claims a table replays it from there (:mod:`.node`). ``docs/server.md``,
"Several processes", explains the whole and what happens when each part fails.
"""
