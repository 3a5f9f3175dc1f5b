"""The card game's bot registry: every bot the commands and the lobby can seat.

Names say the method (``deep`` is ``expert`` checked by native rollouts, ``memory`` the
baseline heuristic); the difficulty names people pick (``easy``, ``medium``, ``hard``) and
other older names stay accepted as aliases. Each figure is measured heads-up against
``memory``, rulebook, 2 players (docs/cards-strength.md), and the stars come from it. The
factories below import their bot on first use, so loading this registry loads no bot and no
numba (``deep`` compiles its rollouts when it is first built).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cambio.bots.registry import BotEntry, Registry, card_stars

if TYPE_CHECKING:
    from .base import CardBot


def _random(argument: str, seed: int) -> CardBot:
    from .random_bot import RandomBot

    return RandomBot(seed)


def _tutor(argument: str, seed: int) -> CardBot:
    from .tutor import TutorBot

    return TutorBot(seed)


def _easy(argument: str, seed: int) -> CardBot:
    from .easy import SlippingBot

    return SlippingBot(seed)


def _memory(argument: str, seed: int) -> CardBot:
    from .memory import ExpectedPointsBot

    return ExpectedPointsBot(seed)


def _expert(argument: str, seed: int) -> CardBot:
    from .expert import OpponentModelBot

    return OpponentModelBot(seed)


def _deep(argument: str, seed: int) -> CardBot:
    from .deep import BatchRolloutSearchBot

    return BatchRolloutSearchBot(seed)


def _search(argument: str, seed: int) -> CardBot:
    from .search import RolloutSearchBot, parse_budget

    if argument:
        return RolloutSearchBot(seed, **parse_budget(argument))  # type: ignore[arg-type]
    return RolloutSearchBot(seed)


def _learned(argument: str, seed: int) -> CardBot:
    from .learned import DistilledNetworkBot

    if argument:
        return DistilledNetworkBot.trained_for(argument, seed)
    return DistilledNetworkBot(seed)


def _rusher(argument: str, seed: int) -> CardBot:
    from .styles import rusher

    return rusher(seed)


def _snapper(argument: str, seed: int) -> CardBot:
    from .styles import snapper

    return snapper(seed)


def _adaptive(argument: str, seed: int) -> CardBot:
    from .adaptive import AdaptiveRolloutSearchBot

    return AdaptiveRolloutSearchBot(seed)


def _deep_read(argument: str, seed: int) -> CardBot:
    from .deep import BatchRolloutSearchBot

    return BatchRolloutSearchBot(seed, read=True)


def _reader(argument: str, seed: int) -> CardBot:
    from .adaptive import AdaptiveRolloutSearchBot

    return AdaptiveRolloutSearchBot(seed, read=True)


def _pimc(argument: str, seed: int) -> CardBot:
    from .pimc import PerfectInformationMonteCarloBot

    return PerfectInformationMonteCarloBot(seed)


def _modeller(argument: str, seed: int) -> CardBot:
    from .pimc import opponent_modeller

    return opponent_modeller(seed)


def _exploit(argument: str, seed: int) -> CardBot:
    from .responder import BestResponseSearchBot

    if not argument:
        raise ValueError("exploit needs its target: exploit:memory, exploit:hard")
    return BestResponseSearchBot(argument, seed)


_HERE = __name__

CARD_BOTS = Registry("cards", [
    BotEntry("random", "Random", "uniform over the legal actions",
             "about 8% against memory (tournaments, docs/cards-strength.md)",
             card_stars(0.08), f"{_HERE}:_random"),
    BotEntry("tutor", "Tutor (practice)", "draws and discards every turn: never swaps, "
             "snaps or calls Cambio (the card tutorial's opponent)",
             "0.4% against memory (rulebook, 400 rounds): it does not try",
             card_stars(0.004), f"{_HERE}:_tutor"),
    BotEntry("easy", "Easy", "memory with 30% random slips",
             "24.6% against memory (rulebook)", card_stars(0.246), f"{_HERE}:_easy",
             level="easy"),
    BotEntry("memory", "Medium (memory)", "remembers what it saw, keeps low cards, "
             "calls Cambio on a low estimate", "50% against memory by definition",
             card_stars(0.50), f"{_HERE}:_memory", aliases=("medium",), level="medium"),
    BotEntry("rusher", "Rusher (calls early)", "a panel style: calls Cambio as early as it "
             "dares (view API only)", "about 29% against memory (rulebook, small samples)",
             card_stars(0.29), f"{_HERE}:_rusher"),
    BotEntry("snapper", "Snapper (snaps a lot)", "a panel style: snaps on the odds, blind "
             "snaps included (view API only)",
             "about 39% against memory (rulebook, small samples)", card_stars(0.39),
             f"{_HERE}:_snapper"),
    BotEntry("expert", "Expert", "memory plus an opponent model and a race model",
             "52.7% / 55.2% / 55.1% against memory (rulebook / house / wikipedia)",
             card_stars(0.527), f"{_HERE}:_expert"),
    BotEntry("search", "Search", "determinized rollouts over the exact belief "
             "(search:300ms, search:4000it)",
             "54.2% against memory (search:48it over expert, rulebook)", card_stars(0.542),
             f"{_HERE}:_search", takes_argument=True),
    BotEntry("learned", "Learned", "a small network distilled from hard's searched "
             "decisions, with weights trained per preset and player count "
             "(learned:house-2p plays one table's; numpy, shipped weights)",
             "61.5% against memory (rulebook, 4,000 rounds)", card_stars(0.615),
             f"{_HERE}:_learned", takes_argument=True),
    BotEntry("deep", "Hard (deep)", "expert's choice checked at every decision by 1,024 "
             "native rollouts in worlds that follow the view's seen masks (in wikipedia "
             "heads-up: calls held back until it looks lowest)",
             "71.8% / 69.5% / 68.8% against memory (rulebook / house / wikipedia)",
             card_stars(0.718), f"{_HERE}:_deep", aliases=("hard",), level="hard",
             kernels="rollouts", stand_in="expert"),
    BotEntry("adaptive", "Master (adaptive)", "hard's search, then up to 12x the rollouts "
             "on the close decisions that matter (about a second at most); heads-up "
             "rolled out by weights balanced to predict (in rulebook its own seat only; "
             "in wikipedia: calls held back until it looks lowest, and a challenger "
             "must be 2 standard errors better), from 4 players its own later turns by "
             "tuned weights",
             "beats hard heads-up in every preset (SPRT; rulebook 53.3% over 1,036 "
             "games, house 53.1% over 1,226, wikipedia 51.9% over 3,906); 71.9% against "
             "memory "
             "before the balanced weights (rulebook, 1,000 rounds; docs/cards-strength.md)",
             card_stars(0.719),
             f"{_HERE}:_adaptive", aliases=("master",), level="master",
             kernels="rollouts", stand_in="expert"),
    BotEntry("deep-read", "Hard, reading", "hard's search in worlds weighted by what the "
             "opponents' discards say about the cards they keep",
             "no gain over hard (SPRT H0, 49.1% over 924 games; docs/cards-strength.md); "
             "hard's 71.8% against memory stands in",
             card_stars(0.718), f"{_HERE}:_deep_read", offered=False,
             kernels="rollouts", stand_in="expert"),
    BotEntry("reader", "Master, reading", "master's search in worlds weighted by what the "
             "opponents' discards say about the cards they keep",
             "not measured on its own yet: master's 71.9% against memory stands in",
             card_stars(0.719), f"{_HERE}:_reader", offered=False,
             kernels="rollouts", stand_in="expert"),
    BotEntry("pimc", "PIMC (panel)", "a panel opponent: perfect-information Monte Carlo, "
             "every card face up in each sampled world", "measured as a panel member "
             "(docs/cards-strength.md)", card_stars(0.5), f"{_HERE}:_pimc", offered=False,
             kernels="rollouts", stand_in="expert"),
    BotEntry("modeller", "Modeller (panel)", "a panel opponent: hard's search with each "
             "opponent played by a style drawn from a population, read from its snaps",
             "measured as a panel member (docs/cards-strength.md)", card_stars(0.5),
             f"{_HERE}:_modeller", offered=False, kernels="rollouts", stand_in="expert"),
    BotEntry("exploit", "Best response", "a search whose rollouts play the target bot's own "
             "policy in every other seat (exploit:memory; what cambio exploit plays)",
             "measured against its target only (docs/cards-strength.md)", card_stars(0.5),
             f"{_HERE}:_exploit", offered=False, takes_argument=True),
])
"""The card bots, weakest first."""

__all__ = ["CARD_BOTS"]
