"""Research interfaces: both games as PettingZoo, OpenSpiel and Gymnasium environments.

The adapters depend on the rules cores; the cores never import them. Each framework lives in
its own module so importing one does not need the others installed:

* :mod:`cambio.envs.pettingzoo` -- AEC environments ``cards_env`` and ``board_env``;
* :mod:`cambio.envs.openspiel` -- pyspiel games ``python_cambio_cards`` and
  ``python_cambio_board`` (registered when the module is imported);
* :mod:`cambio.envs.gymnasium` -- single-agent environments against the project's bots;
* :mod:`cambio.envs.cards_vector`, :mod:`cambio.envs.vector` -- Gymnasium vector envs for
  many games at once (the card game's on the batch engine with native opponents, and
  self-play; the board game's on lanes);
* :mod:`cambio.envs.sb3` -- Stable-Baselines3's ``VecEnv`` over them (the ``train`` extra);
* :mod:`cambio.envs.exploit` -- a best response to a fixed bot (``cambio exploit``).

Importing this package registers ``cambio/Cards-v0`` and ``cambio/Board-v0`` with Gymnasium
(``gym.make``, ``gym.make_vec``).

They share one fixed-size encoding of a seat's view and one action numbering per game
(:mod:`cambio.envs.cards_codec`, :mod:`cambio.envs.board_codec`), documented field by field
in ``docs/envs.md``.
"""


def _register_gymnasium() -> None:
    """``gym.make("cambio/Cards-v0")`` / ``"cambio/Board-v0"`` and their ``gym.make_vec``
    vector envs, once Gymnasium is installed (the other adapters do not need it)."""
    try:
        import gymnasium
    except ImportError:  # pragma: no cover (gymnasium is a dev dependency)
        return
    for env_id, single, vector in (
            ("cambio/Cards-v0", "cambio.envs.gymnasium:CardsSeatEnv",
             "cambio.envs.cards_vector:CardsVectorEnv"),
            ("cambio/Board-v0", "cambio.envs.gymnasium:BoardSeatEnv",
             "cambio.envs.vector:BoardVectorEnv")):
        if env_id not in gymnasium.registry:
            gymnasium.register(env_id, entry_point=single, vector_entry_point=vector,
                               disable_env_checker=True)


_register_gymnasium()
