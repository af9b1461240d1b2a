"""The contract every turn-file game meets, and the pieces they share:
a seeded RNG recorded in the state, choice errors, and events with visibility.

A game's state is a plain dict of YAML-safe values (str, int, bool, list,
dict). Hidden information (hands, secret alliances...) lives in the state, and
only `public_view` / `private_view` decide who sees it."""

from __future__ import annotations

import copy
import hashlib
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Generic, Literal, Protocol, TypeVar

from adjudicator.errors import AdjudicatorError, DataFileError
from adjudicator.store import storage
from adjudicator.store.packagedata import package_folder

State = dict[str, Any]
Choice = dict[str, Any]
T = TypeVar("T")

VARIANTS_DIR = package_folder("adjudicator.variants")      # variants/ of the clone, or of the installed wheel


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


_SCALARS = frozenset((str, int, float, bool, type(None)))


def plain_copy(value: Any) -> Any:
    """copy.deepcopy for a state (mappings, lists and scalars), a few times
    quicker: scalars are shared, not copied, and make up most of a state.
    Anything else goes to copy.deepcopy. A list found twice is copied twice,
    as a round trip through a file would leave it."""
    kind = type(value)
    if kind is dict:
        return {key: item if type(item) in _SCALARS else plain_copy(item) for key, item in value.items()}
    if kind is list:
        return [item if type(item) in _SCALARS else plain_copy(item) for item in value]
    return value if kind in _SCALARS else copy.deepcopy(value)


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


class VariantData:
    """A game's variant data, kept by the game (`GAME.variant_data`): its
    installed file, variants/<game>.yaml, parsed once per version of the file,
    and the last game folder's own copy, parsed again only when its text
    changes (parsing is most of adjudicating a big card game). Every caller
    gets a copy of its own, so that an engine which edits it harms no one."""

    def __init__(self, game_name: str) -> None:
        self.path = VARIANTS_DIR / f"{game_name}.yaml"
        self._installed: tuple[int, dict[str, Any]] | None = None
        self._folder: tuple[str, Any] | None = None

    def installed(self) -> dict[str, Any]:
        """The installed file's data, {} without a file."""
        if not self.path.exists():
            return {}
        version = self.path.stat().st_mtime_ns
        if self._installed is None or self._installed[0] != version:
            data = storage.read_yaml(self.path, keep=True)
            if not isinstance(data, dict):
                raise DataFileError("expected a mapping at the top level", file=str(self.path))
            self._installed = (version, data)
        copied: dict[str, Any] = plain_copy(self._installed[1])
        return copied

    def of_folder(self, path: Path, max_bytes: int) -> Any:
        """A game folder's copy (its variant.yaml), as storage.read_yaml reads it."""
        text = storage.read_text(path, max_bytes=max_bytes)
        if self._folder is None or self._folder[0] != text:
            self._folder = (text, storage.parse_yaml(text, str(path)))
        return plain_copy(self._folder[1])


class ParsedData(Generic[T]):
    """What a game reads out of its data mapping (its rules, its catalog),
    kept by the game for the last mapping given: the driver hands every call
    of one command the same mapping. Holding the mapping itself (not its id)
    means a new mapping is never mistaken for it; a caller that edits a
    mapping in place afterwards must pass a new one."""

    def __init__(self, parse: Callable[[dict[str, Any]], T]) -> None:
        self._parse = parse
        self._last: tuple[dict[str, Any], T] | None = None

    def __call__(self, data: dict[str, Any]) -> T:
        if self._last is None or self._last[0] is not data:
            self._last = (data, self._parse(data))
        return self._last[1]

    @property
    def last(self) -> T | None:
        """What the last mapping gave, if any was read yet."""
        return None if self._last is None else self._last[1]


class TurnGame(Protocol):
    """Implemented by each game's engine module as a module-level `GAME`."""

    name: str          # registry key, e.g. "seven-wonders"
    title: str         # e.g. "7 Wonders"
    min_players: int
    max_players: int
    variant_data: VariantData  # its variant files, read through the driver
    choice_keys: frozenset[str]  # the field names of its choices (not data used as keys, like resources)

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
