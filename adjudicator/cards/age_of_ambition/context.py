"""What an action sees while it is checked and applied: the state, the rules,
who acts, and where errors and report lines go.

Actions check and mutate in one pass. While a turn is checked each action runs
on a copy, kept only if the action raised no error, so a bad action never
leaves half its effect (see engine.play_turn for when no copy is needed)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from adjudicator.cards.age_of_ambition import board
from adjudicator.cards.age_of_ambition.rules import Rules
from adjudicator.cards.common import ChoiceError, Event, State, plain_copy


@dataclass
class Ctx:
    state: State
    rules: Rules
    player: str
    prefix: str
    errors: list[ChoiceError] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)
    triggers: list[str] = field(default_factory=list)

    # --- reporting ---------------------------------------------------------

    def bad(self, where: str, reason: str) -> None:
        self.errors.append(ChoiceError(self.player, f"{self.prefix}.{where}" if where else self.prefix, reason))

    def say(self, text: str) -> None:
        self.events.append(Event(text))

    @property
    def me(self) -> dict[str, Any]:
        player: dict[str, Any] = self.state["players"][self.player]
        return player

    # --- reading fields ----------------------------------------------------

    def guild(self, value: Any, where: str) -> str | None:
        if value is None:
            self.bad(where, "missing guild")
            return None
        if str(value) not in self.rules.guild_ids:
            self.bad(where, f"unknown guild {value!r} (one of {', '.join(self.rules.guild_ids)})")
            return None
        return str(value)

    def district(self, value: Any, where: str) -> str | None:
        if value is None:
            self.bad(where, "missing district")
            return None
        if str(value) not in self.rules.district_ids:
            self.bad(where, f"unknown district {value!r} (one of {', '.join(self.rules.district_ids)})")
            return None
        return str(value)

    def player_name(self, value: Any, where: str) -> str | None:
        if str(value) not in self.state["players"]:
            self.bad(where, f"unknown player {value!r}")
            return None
        return str(value)

    def number(self, value: Any, where: str, minimum: int = 0) -> int | None:
        if not isinstance(value, int) or isinstance(value, bool) or value < minimum:
            self.bad(where, f"expected a whole number of at least {minimum}, got {value!r}")
            return None
        return value

    def guild_counts(self, value: Any, where: str) -> dict[str, int] | None:
        """A {guild: count} mapping, e.g. `agents: {thieves: 3}`."""
        if not isinstance(value, dict) or not value:
            self.bad(where, "expected a mapping of guild to count, e.g. {thieves: 2}")
            return None
        out: dict[str, int] = {}
        for key, n in value.items():
            gid = self.guild(key, f"{where}.{key}")
            num = self.number(n, f"{where}.{key}", 1)
            if gid is not None and num is not None:
                out[gid] = num
        return out if len(out) == len(value) else None

    def guild_list(self, value: Any, where: str) -> list[str] | None:
        """A list of guild ids, one per piece, e.g. `agents: [clerics, clerics]`."""
        if value is None:
            return []
        if not isinstance(value, list):
            self.bad(where, "expected a list of guilds, e.g. [clerics, masons]")
            return None
        out = [self.guild(v, f"{where}[{i}]") for i, v in enumerate(value)]
        return [g for g in out if g is not None] if all(g is not None for g in out) else None

    def only_keys(self, action: dict[str, Any], allowed: set[str]) -> None:
        for key in action:
            if key not in allowed:
                self.bad(str(key), f"unknown field for {action.get('action')} (allowed: {', '.join(sorted(allowed))})")

    # --- shared effects ------------------------------------------------------

    def claim(self, district: str, guild: str, where: str) -> bool:
        """Put one of my flags on an unclaimed agent here."""
        if self.me["flags"] < 1:
            self.bad(where, "no noble flags left to claim with")
            return False
        if board.agents_here(self.state, district, guild) < 1:
            self.bad(where, f"no unclaimed {self.rules.guild(guild).agent} in district {district}")
            return False
        board.set_flag(self.state, district, guild, None, self.player, self.rules)
        self.use_flag()
        return True

    def use_flag(self) -> None:
        self.me["flags"] -= 1
        if self.me["flags"] == 0:
            self.triggers.append(f"{self.player} placed their last noble flag")


class TrialState(dict[str, Any]):
    """A copy of a state for checking an action, made as the action reads it:
    each part (economy, supply, districts, players...) is copied when it is
    first read, so that a hire never copies the districts. Actions read the
    parts by subscript only. Used only while a turn is checked: a TrialState
    never reaches a file."""

    def __init__(self, state: State) -> None:
        super().__init__(state)           # the parts are shared until read
        self._copied: set[str] = set()

    def __getitem__(self, key: str) -> Any:
        value = super().__getitem__(key)
        if key not in self._copied:
            self._copied.add(key)
            value = plain_copy(value)
            super().__setitem__(key, value)
        return value

    def __setitem__(self, key: str, value: Any) -> None:
        self._copied.add(key)
        super().__setitem__(key, value)


def run_action(ctx: Ctx, step: Callable[[Ctx], None], *, on_copy: bool) -> bool:
    """Run one action with its own errors and events, on a copy of the state
    when a failure must leave no trace (`on_copy`), else on the state itself.
    A success's state, events and triggers become ctx's."""
    trial = Ctx(TrialState(ctx.state) if on_copy else ctx.state, ctx.rules, ctx.player, ctx.prefix)
    step(trial)
    ctx.errors.extend(trial.errors)
    if trial.errors:
        return False
    ctx.state = trial.state
    ctx.events.extend(trial.events)
    ctx.triggers.extend(trial.triggers)
    return True
