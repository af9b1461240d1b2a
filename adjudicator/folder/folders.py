"""One game-folder workflow, two kinds of game.

`open_game(path)` reads game.yaml and returns the folder's `GameFolder`: a
`DiplomacyFolder` (Standard, Ambition & Empire) or a `TurnFileFolder` (the
card and board games). The CLI, the runner and the mail code speak only this
interface; each implementation delegates to its own module (gamefolder for
Diplomacy, cards.driver for turn-file games), which hold the rules of each."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from adjudicator.store import storage
from adjudicator.store.gamemeta import check_meta

if TYPE_CHECKING:
    from adjudicator.folder.schedule import DeadlineRule


@dataclass
class Written:
    """What a phase step wrote, and the lines the GM should read."""

    paths: list[Path]
    notes: list[str] = field(default_factory=list)


@dataclass
class Standing:
    """Where the game stands: the phase, who must still order, who has."""

    phase: str
    waiting: list[str]               # must still order: not "in" (see folder/orderset.py)
    received: list[str]              # have orders stored (whether or not they had to order, complete or not)
    over: bool = False
    labels: dict[str, str] = field(default_factory=dict)
    missed: dict[str, int] = field(default_factory=dict)   # phases missed in a row
    lacking: dict[str, list[str]] = field(default_factory=dict)   # what a power not in still lacks
    holding: list[str] = field(default_factory=list)       # said 'wait': not processed before the deadline

    def names(self, seats: list[str]) -> str:
        return ", ".join(self.labels.get(s, s) for s in seats) or "nobody"

    def lines(self, expected: list[str]) -> list[str]:
        """Who is in and who is not, and why, for `status`."""
        ins = [p for p in expected if p not in self.waiting]
        out = [f"Orders in: {self.names(ins)}", f"Waiting for: {self.names(self.waiting)}"]
        for power in self.waiting:
            if power in self.holding:
                out.append(f"  {self.labels.get(power, power)}: asked to wait for the deadline")
            elif power in self.received:
                out.append(f"  {self.labels.get(power, power)}: {'; '.join(self.lacking.get(power) or [])}")
        return out


class GameFolder(Protocol):
    path: Path
    kind: str

    def check(self, orders: Path, who: str | None, echo: Callable[[str], None]) -> bool: ...
    def adjudicate(self, orders: Path | None, *, force: bool = False, nmr: bool = False,
                   opens: datetime | None = None, deadline: DeadlineRule | None = None) -> Written: ...
    def preview(self, orders: Path | None, *, nmr: bool = False) -> Written: ...
    def rollback(self, phase: str, *, opens: datetime | None = None,
                 deadline: DeadlineRule | None = None) -> list[Path]: ...
    def status(self) -> str: ...
    def standing(self) -> Standing: ...
    def opening_kind(self) -> str: ...


class DiplomacyFolder:
    kind = "diplomacy"

    def __init__(self, path: Path) -> None:
        self.path = path

    def check(self, orders: Path, who: str | None, echo: Callable[[str], None]) -> bool:
        from adjudicator.folder.checking import check_orders
        return check_orders(self.path, orders, who, None, echo=echo)

    def adjudicate(self, orders: Path | None, *, force: bool = False, nmr: bool = False,
                   opens: datetime | None = None, deadline: DeadlineRule | None = None) -> Written:
        from adjudicator.folder import gamefolder
        done = gamefolder.adjudicate(self.path, orders, force=force, nmr=nmr, opens=opens, deadline=deadline)
        return Written(done.written, done.notes)

    def preview(self, orders: Path | None, *, nmr: bool = False) -> Written:
        from adjudicator.folder import gamefolder
        done = gamefolder.preview(self.path, orders, nmr=nmr)
        return Written(done.written, done.notes)

    def rollback(self, phase: str, *, opens: datetime | None = None,
                 deadline: DeadlineRule | None = None) -> list[Path]:
        from adjudicator.folder import gamefolder
        return gamefolder.rollback(self.path, phase, opens=opens, deadline=deadline)

    def status(self) -> str:
        from adjudicator.folder import gamefolder
        from adjudicator.folder.schedule import must_order
        _, variant, state, _ = gamefolder.load_current(self.path)
        orders = [] if state.result else self.standing().lines(must_order(variant, state))
        return gamefolder.status_text(self.path, orders)

    def standing(self) -> Standing:
        """Who is in: see folder/orderset.py (a complete set of valid orders, or 'ready')."""
        from adjudicator.folder.gamefolder import collected_files, load_current
        from adjudicator.folder.orderset import standing_of
        from adjudicator.folder.schedule import must_order
        _, variant, state, _ = load_current(self.path)
        labels = {p: variant.power_name(p) for p in variant.powers}
        if state.result:
            return Standing(state.phase.slug, [], [], over=True, labels=labels)
        have = {p.stem for p in collected_files(self.path, state.phase)}
        expected = must_order(variant, state)
        ready = standing_of(self.path, variant, state, expected)
        return Standing(state.phase.slug, [p for p in expected if not ready[p].is_in], sorted(have),
                        labels=labels, missed=dict(state.missed),
                        lacking={p: r.missing for p, r in ready.items() if not r.is_in},
                        holding=[p for p, r in ready.items() if r.flag == "wait"])

    def opening_kind(self) -> str:
        """The kind of the phase now open (movement, retreat, adjustment), for its length."""
        from adjudicator.folder.gamefolder import load_current
        return load_current(self.path)[2].phase.kind


class TurnFileFolder:
    kind = "turn-file"

    def __init__(self, path: Path) -> None:
        self.path = path

    def check(self, orders: Path, who: str | None, echo: Callable[[str], None]) -> bool:
        from adjudicator.cards import driver
        errors = driver.check_turn(self.path, orders, who)
        for error in errors:
            echo(f"{orders}: {error}")
        if not errors:
            echo("all choices are valid")
        return not errors

    def adjudicate(self, orders: Path | None, *, force: bool = False, nmr: bool = False,
                   opens: datetime | None = None, deadline: DeadlineRule | None = None) -> Written:
        from adjudicator.cards import driver
        return Written(driver.adjudicate(self.path, orders, force=force, nmr=nmr, opens=opens,
                                         deadline=deadline))

    def preview(self, orders: Path | None, *, nmr: bool = False) -> Written:
        from adjudicator.cards import driver
        return Written(driver.preview(self.path, orders, nmr=nmr))

    def rollback(self, phase: str, *, opens: datetime | None = None,
                 deadline: DeadlineRule | None = None) -> list[Path]:
        from adjudicator.cards import driver
        return driver.rollback(self.path, phase, opens=opens, deadline=deadline)

    def status(self) -> str:
        from adjudicator.cards import driver
        now = driver.current(self.path)
        info = now.game.phase(now.state)
        head = f"{now.game.title}: " + (f"{info.title or info.name}, waiting for {', '.join(info.waiting_for)}"
                                        if info else "game over")
        return head + "\n" + storage.dump_yaml(now.game.public_view(now.state, now.data))

    def standing(self) -> Standing:
        from adjudicator.cards import driver
        now = driver.current(self.path)
        info = now.game.phase(now.state)
        if info is None:
            return Standing("the end", [], [], over=True)
        have = sorted(p.stem for p in driver.collected_dir(self.path, now.number, info).glob("*.yaml"))
        return Standing(f"{now.number:04d}-{info.name}", [p for p in info.waiting_for if p not in have], have)

    def opening_kind(self) -> str:
        return "movement"          # one length for every turn of a card game


def game_meta(path: Path) -> dict[str, Any]:
    return check_meta(storage.read_yaml(path / "game.yaml"), str(path / "game.yaml"))


def open_game(path: Path) -> GameFolder:
    """The game in `path`, as the implementation its game.yaml names."""
    if game_meta(path).get("kind") == "turn-file":
        return TurnFileFolder(path)
    return DiplomacyFolder(path)
