"""``cambio serve`` says the server's own defaults: every option named like a
:class:`Settings` field defaults to that field's value, so the command and a server built
in code cannot drift apart."""

from __future__ import annotations

import dataclasses
import inspect

from cambio.server.command import serve_command
from cambio.server.settings import Settings


def test_every_option_defaults_to_the_settings_value() -> None:
    defaults = Settings()
    options = inspect.signature(serve_command).parameters
    shared = [f.name for f in dataclasses.fields(Settings) if f.name in options]
    assert len(shared) >= 20
    for name in shared:
        want = getattr(defaults, name)
        if name == "turn_clock":  # no clock: None in the settings, 0 on the command line
            want = want or 0
        assert options[name].default == want, name
