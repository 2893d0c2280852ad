"""The one interface through which the platform knows a game: its options, its start, its decisions, what each
seat and a spectator may see of it, its bots, and what the fairness check and the replay need.

The platform (rooms, storage, history, undo, turn-based play, the fairness check) imports only this module and
the registry (games/registry.py); each game is a folder of its own with a `GAME` object implementing it. The
rules behind it stay pure: every method here is synchronous, does no I/O and is deterministic given its
arguments, and a state it returns is never changed afterwards (the platform keeps states by identity).

States and decisions are the game's own objects: the platform stores a state through `to_record`/`from_record`,
sends a decision back and forth through `decision`/`wire`, and never looks inside either.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar, Protocol

from pydantic import BaseModel

Event = dict[str, Any]
Audience = int | None  # a seat, or None for a spectator (and for anything kept for the public: logs, replays)
Bot = Callable[[Any], Any]  # a state in, the decision the bot takes for the seat to move out


class BotMaker(Protocol):
    """A bot for a seed (its choices follow from it) whose every decision searches at most `budget` seconds when
    a budget is given (None: no cap); a bot that answers at once ignores it."""

    def __call__(self, seed: str, budget: float | None = None) -> Bot: ...


def instant(make: Callable[[str], Bot]) -> BotMaker:
    """The maker of a bot that answers at once (no search to cap), as the platform calls it."""

    def made(seed: str, budget: float | None = None) -> Bot:
        return make(seed)

    return made


class RulesError(Exception):
    """A decision the rules refuse, with a stable protocol `code` (not_your_turn, illegal_decision, ...)."""

    code = "illegal_decision"

    def __init__(self, message: str, code: str | None = None) -> None:
        super().__init__(message)
        if code is not None:
            self.code = code


class OptionsError(ValueError):
    """Game options the game cannot play with; the message names the field (`sheet: Field required`)."""


class Components(Protocol):
    """What a game's drawing needs besides the state, fixed by the room's options (the Dice Charmers' sheet file):
    sent to a page once and then kept by it under its `digest`."""

    @property
    def digest(self) -> str: ...

    def to_json(self) -> Any: ...


class Game(ABC):
    """A game the platform can host. Subclasses set the class variables and implement the methods."""

    id: ClassVar[str]  # the registry's key and the folder's name, e.g. "dice_charmers"
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    # Whether seats may see different things (a hand of cards): views and events are then made per audience.
    hidden: ClassVar[bool] = False
    # The name of the construction every draw of the game comes from (games/rng.py), written in game logs.
    generator: ClassVar[str]
    options_model: ClassVar[type[BaseModel]]  # the game's own room settings, beside the platform's

    # ---- options and components ---------------------------------------------------------------------------

    def options(self, raw: Mapping[str, Any]) -> dict[str, Any]:
        """The game's own settings (what a room's settings hold beside the platform's), checked by
        `options_model`: plain data to keep with the room. Raises OptionsError, for a setting it does not know
        too."""
        from pydantic import ValidationError

        try:
            return self.options_model.model_validate(dict(raw)).model_dump()
        except ValidationError as e:
            first = e.errors()[0]
            where = ".".join(str(x) for x in first["loc"]) or "settings"
            raise OptionsError(f"{where}: {first['msg']}") from None

    @abstractmethod
    def components(self, options: Mapping[str, Any]) -> Components:
        """The components a room with these options plays with (made once and kept while in use). Raises
        OptionsError for options that cannot be played."""

    def options_view(self, options: Mapping[str, Any]) -> dict[str, Any]:
        """The options as everyone may see them (a custom sheet by its name rather than its file)."""
        return dict(options)

    # ---- playing ------------------------------------------------------------------------------------------

    @abstractmethod
    def setup(
        self, players: int, seed: str, contributions: Sequence[str], components: Components
    ) -> tuple[Any, list[Event]]:
        """A new game for `players` seats: every draw comes from the seed and the players' contributions."""

    @abstractmethod
    def decision(self, wire: Any) -> Any:
        """A decision from its wire form. Raises RulesError (code malformed_decision)."""

    @abstractmethod
    def wire(self, decision: Any) -> Any:
        """A decision's wire form (plain JSON data)."""

    @abstractmethod
    def apply(self, state: Any, decision: Any, seat: int | None = None) -> tuple[Any, list[Event]]:
        """The state after `seat` (default: the seat to move) took `decision`, and the events it caused. Raises
        RulesError and leaves `state` as it was."""

    @abstractmethod
    def legal(self, state: Any) -> Sequence[Any]:
        """Every decision the seat to move may take now (empty once the game is over)."""

    @abstractmethod
    def to_move(self, state: Any) -> int | None:
        """The seat that must decide now; None once the game is over."""

    @abstractmethod
    def start_player(self, state: Any) -> int:
        """The seat the game began with (drawn by the setup)."""

    @abstractmethod
    def turn(self, state: Any) -> tuple[int, int]:
        """(n, seat) of the turn in play: n grows with every turn, so a turn clock or a reminder is for one turn."""

    @abstractmethod
    def is_over(self, state: Any) -> bool: ...

    @abstractmethod
    def result(self, state: Any) -> list[dict[str, Any]]:
        """The final standings, best first: each {"seat", "winner", ...} with what decided it."""

    def series(self, row: Mapping[str, Any]) -> dict[str, float]:
        """What a finished game's standing `row` adds to its seat's sums in a room's series table."""
        return {}

    @abstractmethod
    def barrier(self, before: Any, after: Any) -> str | None:
        """Whether the step from `before` to `after` can never be taken back (undo within the turn): None when it
        can; else the refusal code for trying (`nothing_to_undo` when the turn passed, `undo_after_roll` when
        something was drawn or shown)."""

    @abstractmethod
    def skip(self, state: Any) -> Any:
        """The smallest legal way through the seat to move's decision, for a turn-based turn whose limit ran out."""

    # kind -> a bot for a seed and a think budget: "greedy" and "random" at least, and any levels of the game's own
    # ("expert"); every one but "random" runs off the event loop (server/rooms/tasks.py), as a search may take a
    # while, and the platform passes the node's budget (RAJAS_BOT_THINK) so that a search answers in time.
    bots: ClassVar[Mapping[str, BotMaker]]

    # ---- what each audience sees ------------------------------------------------------------------------------

    @abstractmethod
    def view(self, state: Any, audience: Audience, base: Any = None) -> dict[str, Any]:
        """The game as `audience` sees it: {"state", "pending"}. With `base` (the state of the version before), a
        game may send only what changed since (the pages keep the rest)."""

    def replay_view(self, state: Any) -> dict[str, Any]:
        """The game at one step of a finished game's replay, where nothing is hidden any more (the seed is out):
        a spectator's view by default, and every hand in a game that hides them during play."""
        return self.view(state, None)

    def events_for(self, events: list[Event], audience: Audience) -> list[Event]:
        """The events `audience` may receive (all of them, in a game without hidden information)."""
        return events

    @abstractmethod
    def announced(self, events: list[Event]) -> list[Event]:
        """The events that show what the game's generator drew for everyone (dice rolled, a card turned up): kept
        in the game's log so that a player can check them once the seed is revealed."""

    # ---- keeping a game ----------------------------------------------------------------------------------------

    @abstractmethod
    def to_record(self, state: Any) -> dict[str, Any]:
        """The whole state as plain data (secrets included: stored, never sent)."""

    @abstractmethod
    def from_record(self, data: Mapping[str, Any], components: Components) -> Any: ...

    def replay_marks(self, state: Any) -> list[int]:
        """What the replay viewer steps by besides decisions: [round, seat to move] by default."""
        n, seat = self.turn(state)
        return [n, seat]
