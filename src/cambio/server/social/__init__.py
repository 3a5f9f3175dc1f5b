"""People among themselves: follows and invites, mutes and blocks, reports, and the
operators' moderation (docs/moderation.md). The rules live here; the REST endpoints are
:mod:`cambio.server.social_api` and the operators' commands :mod:`cambio.server.admin`.

- :mod:`.moderation` -- sanctions (timed mutes, bans), warnings, roles and the log of every
  operator's action; read by the server's checks, written by ``cambio admin``;
- :mod:`.relations` -- follows, blocks, mutes, invites, reports and the friends list;
- :mod:`.hush` -- the chat room's hook: who may not say what, and whose lines a reader
  does not get.
"""
