"""Cambio, the card game, in a terminal: one human against bots, any preset, 2-8 seats.

Input is read line by line from a text stream (stdin by default) so a game can be scripted
through a pipe; output goes through a rich console. The human only ever gets their own view
(:func:`cambio.cards.observe`), and their face-down cards are drawn as ``##`` even when they
have seen them -- remembering is the game -- unless ``assist`` is on.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from random import SystemRandom
from typing import Protocol

from rich.console import Console

from cambio.bots.cards import CardBot, make_bot
from cambio.bots.cards.base import tell_standing
from cambio.cards import CardView, Match, Phase, Rules, State, observe
from cambio.cards.actions import Action
from cambio.cards.events import Event, seen_by
from cambio.records.cards import make_header, record_text
from cambio.seeds import derive_seed

from .cards_prompts import PromptSpec, prompt_for
from .cards_text import Logger, Namer, card_text, render_table, reveal_lines

HELP = """\
How to answer: slots are numbered. Your own slots are plain numbers (0-3; 2 and 3 are your
bottom row, the two you peeked at first); another player's slot is seat.slot, e.g. 1.2.
Short answers: d = draw / discard, t = take from the pile, c = call Cambio, s = skip or
switch, k = keep, Enter = pass (when asked to snap). Full action text works too
(e.g. "switch 0.1 2.3"). q = quit."""


class LineSource(Protocol):
    def readline(self) -> str: ...


class EndOfInput(Exception):
    """The input stream ended (Ctrl-D, or the end of a piped script)."""


class QuitGame(Exception):
    """The human typed ``q``."""


@dataclass(frozen=True)
class TerminalOptions:
    rules: Rules
    players: int
    seat: int
    bots: tuple[str, ...]
    """One bot name per other seat, in seat order."""
    seed: int | None = None
    assist: bool = False
    hint: bool = False
    """Before each of your decisions, show the hard bot's suggestion (from your view only)."""
    record: Path | None = None
    target: int = 100
    """A match ends once someone's cumulative total reaches this."""


class Screen:
    """Prompts and plain lines: no markup parsing, so card text can never be misread."""

    def __init__(self, infile: LineSource, console: Console) -> None:
        self.infile = infile
        self.console = console
        isatty = getattr(infile, "isatty", None)
        self.echo = not (callable(isatty) and isatty())

    def say(self, text: str = "", style: str | None = None) -> None:
        self.console.print(text, markup=False, highlight=False, style=style, soft_wrap=True)

    def ask(self, question: str) -> str:
        self.say(question, style="bold")
        self.console.print("> ", end="", markup=False, highlight=False)
        self.console.file.flush()
        line = self.infile.readline()
        if line == "":
            raise EndOfInput
        answer = line.strip()
        if self.echo:  # a piped transcript then reads like a session
            self.say(answer)
        if answer.lower() in ("q", "quit", "exit"):
            raise QuitGame
        return answer


class TerminalGame:
    def __init__(self, options: TerminalOptions, screen: Screen) -> None:
        self.o = options
        self.screen = screen
        self.seed = options.seed if options.seed is not None else SystemRandom().randrange(2**31)
        n = options.players
        self.me = options.seat
        others = iter(options.bots)
        self.bot_names = ["you" if s == self.me else next(others) for s in range(n)]
        self.namer = Namer(self.me, self.bot_names)
        # Rules with their own match target (Cabo's 100, passed) play to it.
        target = None if options.rules.match_target is not None else options.target
        self.match = Match(options.rules, n, seed=self.seed, rounds=None, target=target)
        self.state: State | None = None
        self.round = 0

    # ------------------------------------------------------------------ the match
    def run(self) -> None:
        o, say = self.o, self.screen.say
        rules = o.rules.to_json()
        extra = " + " + ", ".join(f"{k}={v}" for k, v in rules["overrides"].items()) \
            if rules["overrides"] else ""
        say(f"Cambio (the card game) · rules: {rules['preset']}{extra} · {o.players} players "
            f"· seed {self.seed}", style="bold")
        say(f"You are seat {self.me}. " + ", ".join(
            self.namer.seat(s) for s in range(o.players) if s != self.me) + ".")
        say("Lowest total wins. Type ? at any prompt for help, q to quit.")
        while True:
            self.play_round()
            if self.match.is_over():
                totals = self.match.totals
                past = "passed" if self.match.passes else "reached"
                say(f"The match is over (someone {past} "
                    f"{self.match.target}): lowest total wins — " + " and ".join(
                        self.namer.seat(s) for s in self.match.winners()) +
                    f" with {min(totals)}.", style="bold")
                return
            if not self._again():
                say("Thanks for playing!")
                return

    def _again(self) -> bool:
        while True:
            answer = self.screen.ask("Play another round? (y/n)").lower()
            if answer in ("y", "yes"):
                return True
            if answer in ("n", "no", ""):
                return False
            self.screen.say("Please answer y or n.", style="red")

    def play_round(self) -> None:
        self.round = self.match.round_number
        state = self.match.new_round()
        self.state = state
        n = self.o.players
        bots: dict[int, CardBot] = {
            s: make_bot(self.bot_names[s], derive_seed(self.seed, self.round, s))
            for s in range(n) if s != self.me}
        for bot in bots.values():
            tell_standing(bot, self.match.standing())
        say = self.screen.say
        say()
        say(f"══ Round {self.round} · seat {state.dealer} deals, seat {state.turn} plays "
            "first ══", style="bold")
        view = observe(state, self.me)
        seen = [f"slot {i} = {card_text(c)}" for i, c in enumerate(view.own_grid()) if c >= 0]
        if seen:
            tail = "" if self.o.assist else " Remember them: they go face down again."
            say(f"You peek at your bottom cards: {', '.join(seen)}.{tail}", style="yellow")
        logger = Logger(self.namer)
        while not state.is_over():
            actor = state.current_player()
            if actor == self.me:
                action = self.human(observe(state, self.me))
            else:
                action = bots[actor].act(observe(state, actor))
            events: list[Event] = []
            action = state.play(action, actor, events)
            after = observe(state, self.me)
            told = [seen_by(e, self.me) for e in events]
            for line in logger.describe(actor, action, told, after):
                mine = actor == self.me or "your" in line
                say(line, style="cyan" if mine else None)
        resets = list(self.match.resets)
        self.match.finish_round(state)
        final = observe(state, self.me)
        say()
        for line in reveal_lines(final, self.namer, self.match.totals):
            say(line)
        for s, (was, now) in enumerate(zip(resets, self.match.resets, strict=True)):
            if now > was:
                say(f"{self.namer.seat(s)} hit exactly {self.o.rules.match_target}: the total "
                    f"is reset to {self.o.rules.match_reset_to}.", style="bold")
        self.save_record()

    # ------------------------------------------------------------------ records
    def save_record(self) -> None:
        """Write the current round's full record (partial if the game was left mid-round)."""
        if self.o.record is None or self.state is None:
            return
        path = self.o.record
        if self.round > 1:
            path = path.with_name(f"{path.stem}-r{self.round}{path.suffix}")
        players = [{"name": "human"} if s == self.me else
                   {"name": f"{name} (seat {s})", "bot": name}
                   for s, name in enumerate(self.bot_names)]
        header = make_header(self.o.rules, players, seed=self.state.seed,
                             dealer=self.state.dealer, polled=True)
        path.write_text(record_text(header, self.state.history), encoding="utf-8")
        self.screen.say(f"(record written to {path})", style="dim")

    # ------------------------------------------------------------------ the human
    def human(self, view: CardView) -> Action:
        """Ask until the answer is a legal action; explain every refusal."""
        if view.phase in (Phase.TURN_START, Phase.POWER, Phase.KING_DECIDE, Phase.GIVE):
            for line in render_table(view, self.namer, self.o.assist):
                self.screen.say(line)
        spec = prompt_for(view, self.namer)
        if self.o.hint and len(view.legal) > 1:
            from cambio.bots.cards.hints import suggest

            hint = suggest(view, seed=derive_seed(self.seed, self.round, len(view.discard)),
                           standing=self.match.standing())
            self.screen.say(hint.describe(), style="green")
        while True:
            answer = self.screen.ask(spec.question)
            if answer in ("?", "h", "help"):
                self.screen.say(HELP)
                continue
            action, problem = spec.parse(answer)
            if action is not None and action in view.legal:
                return action
            self.screen.say(problem or _refusal(view, answer, spec), style="red")


def _refusal(view: CardView, answer: str, spec: PromptSpec) -> str:
    if view.phase == Phase.TURN_START and answer.lower() in ("c", "cambio"):
        if view.caller is not None:
            return "Cambio has already been called this round."
        return f"Cambio may be called from turn {view.rules.earliest_cambio_turn} on."
    if view.phase == Phase.DRAWN and answer.lower() in ("d", "discard") and \
            view.held_from_pile:
        return "A card taken from the discard pile must be swapped into your grid."
    return f"{answer!r} is not a choice here. {spec.hint}"


def run_terminal(options: TerminalOptions, infile: LineSource, console: Console) -> int:
    """Play until the human stops; return the process exit code (never raises on bad input)."""
    screen = Screen(infile, console)
    game = TerminalGame(options, screen)
    try:
        game.run()
    except EndOfInput:
        screen.say()
        game.save_record()
        screen.say("Input ended: leaving the game. Bye!")
    except QuitGame:
        game.save_record()
        screen.say("You left the game. Bye!")
    except KeyboardInterrupt:
        screen.say()
        game.save_record()
        screen.say("Interrupted: leaving the game.")
        return 130
    return 0


__all__ = ["EndOfInput", "QuitGame", "TerminalGame", "TerminalOptions", "run_terminal"]
