"""The contract every turn-file game meets, and the pieces they share:
a seeded RNG recorded in the state, choice errors, and events with visibility.

A game's state is a plain dict of YAML-safe values (str, int, bool, list,
dict). Hidden information (hands, secret alliances...) lives in the state, and
only `public_view` / `private_view` decide who sees it."""

from __future__ import annotations

import hashlib
import random
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

from adjudicator.errors import AdjudicatorError

State = dict[str, Any]
Choice = dict[str, Any]


@dataclass(frozen=True)
class ChoiceError:
    """One bad choice: who, which field of their turn, and why."""

    player: str
    field: str
    reason: str

    def __str__(self) -> str:
        return f"{self.player}: {self.field}: {self.reason}"


class TurnValidationError(AdjudicatorError):
    """Raised with every bad choice of a turn file; nothing has been applied."""

    def __init__(self, errors: list[ChoiceError], *, file: str | None = None) -> None:
        self.errors = errors
        lines = "; ".join(str(e) for e in errors)
        super().__init__(f"{len(errors)} bad choice{'' if len(errors) == 1 else 's'}: {lines}", file=file)


@dataclass(frozen=True)
class PhaseInfo:
    """What the game waits for now.

    `name` is a short slug used in file names (e.g. "age1-turn3"); `mode` is
    "simultaneous" (every player in `waiting_for` sends a choice) or
    "sequential" (exactly one player does). `quiet_defaults` keeps the
    driver's "sent nothing; default applied" line private to that player, for
    phases where the list of silent players would give a secret away."""

    name: str
    mode: Literal["simultaneous", "sequential"]
    waiting_for: list[str]
    title: str = ""
    quiet_defaults: bool = False


@dataclass(frozen=True)
class Event:
    """A line of the report. `visible_to` None means public; otherwise only
    the listed players (and the GM) see it."""

    text: str
    visible_to: tuple[str, ...] | None = None

    def is_visible_to(self, player: str | None) -> bool:
        if self.visible_to is None:
            return True
        return player is not None and player in self.visible_to


@dataclass
class Outcome:
    """What applying one turn produced."""

    state: State
    events: list[Event] = field(default_factory=list)


def new_rng_record(seed: int) -> dict[str, int]:
    return {"seed": int(seed), "draws": 0}


def rng(state: State) -> random.Random:
    """A fresh Random for the next random step, derived from the recorded seed
    and a draw counter that is bumped in the state. Replaying the same turns on
    the same seed gives the same shuffles and dice, and the counter in each
    history file lets an auditor re-derive any step."""
    record = state["rng"]
    digest = hashlib.sha256(f"{record['seed']}:{record['draws']}".encode()).digest()
    record["draws"] = int(record["draws"]) + 1
    return random.Random(int.from_bytes(digest[:8], "big"))


class TurnGame(Protocol):
    """Implemented by each game's engine module as a module-level `GAME`."""

    name: str          # registry key, e.g. "seven-wonders"
    title: str         # e.g. "7 Wonders"
    min_players: int
    max_players: int

    def setup(self, players: list[str], seed: int, data: dict[str, Any]) -> State:
        """The state before the first phase. Must call new_rng_record(seed)
        into state["rng"] and draw all randomness through rng(state)."""
        ...

    def phase(self, state: State) -> PhaseInfo | None:
        """The phase now waiting for input, or None when the game is over."""
        ...

    def validate(self, state: State, turn: dict[str, Choice], data: dict[str, Any]) -> list[ChoiceError]:
        """Every bad choice in `turn` (player -> choice). Empty means valid.
        Must not modify `state`."""
        ...

    def default_choice(self, state: State, player: str, data: dict[str, Any]) -> Choice | None:
        """What a player who sent nothing does, or None if they must send something."""
        ...

    def apply(self, state: State, turn: dict[str, Choice], data: dict[str, Any]) -> Outcome:
        """Apply a validated turn to a deep copy of `state` and return it with events."""
        ...

    def public_view(self, state: State, data: dict[str, Any] | None = None) -> dict[str, Any]:
        """Everything every player may see. Never hands or other secrets.
        `data` is the game's own variant data (the driver passes it)."""
        ...

    def private_view(self, state: State, player: str, data: dict[str, Any] | None = None) -> dict[str, Any]:
        """What `player` alone may see (hand, secret alliances...), plus the public view."""
        ...
