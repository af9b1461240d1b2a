"""Mailed choices for turn-file games (7 Wonders, the Ambition games, Age of
Artisans). A player mails their own choice as YAML in the body, either the
choice itself or `<their name>: <choice>`:

    password: their-password
    phase: age1-turn2                # optional: the player's word for the phase
    action: build
    card: Lumber Yard

The choice is checked as `check --player` checks it
(driver.check_player_choice); a good one is stored as
orders/<NNNN-phase>/<player>.yaml holding exactly `{player: choice}`, and the
reply echoes it normalised. A bad one stores nothing and the reply lists each
error. A mail that names another player (a mapping key that is another
player's name) is refused whole: a player sends only their own choice.

Greetings, sign-offs, quoted text and password lines are taken out as for
Diplomacy (adjudicator.mail.mailread); a line with a ':' or an indented line is
always YAML content."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

from adjudicator.cards import driver
from adjudicator.cards.common import PhaseInfo
from adjudicator.errors import AdjudicatorError, GameFolderError
from adjudicator.mail.intake import Context, Rejected, Verdict, phase_opened
from adjudicator.mail.mailread import Body, Letter, split_lines
from adjudicator.mail.playerlines import is_choice_line, mapping_keys
from adjudicator.store import storage
from adjudicator.store.names import check_name

MAX_KEYS = 10_000                  # mapping keys looked at for other players' names


def is_yaml_line(line: str) -> bool:
    """A line that is plainly part of a YAML choice, never chatter."""
    stripped = line.strip()
    return ":" in line or line.startswith(" ") or stripped.startswith(("- ", "{", "[", "}", "]"))


def own_choice(data: Any, player: str, seats: list[str]) -> Any:
    """The player's choice from what they mailed; Rejected if it names another player."""
    if data is None:
        raise Rejected("the message has no choice; write it as YAML, e.g. 'action: sell' and 'card: ...'")
    others = sorted(s for s in seats if s != player and s.lower() in mapping_keys(data, MAX_KEYS))
    if others:
        raise Rejected(f"the mail names {', '.join(others)}; send only your own choice "
                       f"(as '{player}: ...' or the choice alone)")
    if isinstance(data, dict) and len(data) == 1:
        (key, value), = data.items()
        if str(key).lower() == player.lower():
            return value
    return data


@dataclass
class TurnContext(Context):
    index: int
    info: PhaseInfo
    seats: list[str]
    earlier: list[str]               # the phases already adjudicated, by name
    choice_keys: frozenset[str] = frozenset()   # the field names of the game's choices
    asks_for: ClassVar[str] = "Choices"

    def seat(self, player: dict[str, Any]) -> str:
        return check_name(str(player.get("power") or player.get("name") or ""), "player")

    def split(self, text: str) -> Body:
        return split_lines(text, is_yaml_line, lambda line: is_choice_line(line, self.choice_keys, self.seats))

    def phase_named(self, text: str) -> str | None:
        name = text.strip().lower()
        return name.split("-", 1)[1] if driver.index_of(name) is not None else name

    def done(self, slug: str) -> bool:
        return slug in self.earlier

    def decide(self, letter: Letter, power: str, body: Body, verdict: Verdict) -> None:
        try:
            data = storage.parse_yaml(body.text, "your mail")
        except AdjudicatorError as exc:
            where = f"line {exc.line}: " if exc.line else ""
            raise Rejected(f"{where}{exc.message}; write your choice as YAML, e.g. 'action: sell'") from None
        choice = own_choice(data, power, self.seats)
        errors = driver.check_player_choice(self.folder, power, choice)
        if errors:
            raise Rejected("your choice has problems, so it was not stored:\n  "
                           + "\n  ".join(f"{e.field}: {e.reason}" for e in errors))
        normal = storage.dump_yaml({power: choice})
        verdict.stored = normal
        verdict.target = driver.collected_dir(self.folder, self.index, self.info) / f"{power}.yaml"
        verdict.errors = list(body.problems)
        verdict.body = (f"Choice received for {power}, {self.phase}. It replaces any choice you sent before.\n\n"
                        + normal + ("\n" + "\n".join(body.problems) + "\n" if body.problems else ""))


def turn_context(folder: Path, game: str, entries: dict[str, dict[str, Any]]) -> TurnContext:
    now = driver.current(folder)
    info = now.game.phase(now.state)
    if info is None:
        raise GameFolderError("the game is over; no choices are taken", file=str(folder))
    earlier = [path.stem.split("-", 1)[1] for path in driver.history_files(folder)[:-1]]
    shown = f"{info.title} ({info.name})" if info.title else info.name
    return TurnContext(folder, game, phase_opened(folder), entries, shown, info.name, now.number, info,
                       now.players, earlier, now.game.choice_keys)
