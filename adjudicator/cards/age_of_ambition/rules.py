"""The game's data (variants/age-of-ambition.yaml) read into typed records.

Everything the rulebook leaves open (economy columns, alliance values, tactics,
statue requirements) is data here, so a GM can replace it without code."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from adjudicator.errors import DataFileError

DATA_FILE = "variants/age-of-ambition.yaml"

# Effect kinds the engine knows; a tactic in the YAML must name one of them.
EFFECTS = ("statue", "claim", "return_debt", "build", "move_buildings", "buy_claim",
           "collect", "pick_pockets", "steal_credit", "compel", "sack")

_AMOUNT = re.compile(r"^\s*X\s*(?:([+-])\s*(\d+))?\s*$")


@dataclass(frozen=True)
class Guild:
    id: str
    name: str
    agent: str      # singular, e.g. "mercenary"
    agents: str     # plural, e.g. "mercenaries"


@dataclass(frozen=True)
class Tactic:
    id: str
    guild: str
    name: str
    effect: str
    params: dict[str, Any]
    text: str
    source: str

    def amount(self, x: int) -> int:
        """The tactic's amount for alliance value x (never below 0)."""
        raw = self.params.get("amount", "X")
        if isinstance(raw, int):
            return max(0, raw)
        match = _AMOUNT.match(str(raw))
        if not match:  # checked at load; kept total for safety
            return 0
        sign, num = match.groups()
        delta = int(num) if num else 0
        return max(0, x + delta if sign != "-" else x - delta)


@dataclass(frozen=True)
class District:
    id: str
    name: str
    need_buildings: dict[str, int]
    need_agents: dict[str, int]


@dataclass(frozen=True)
class Rules:
    guilds: tuple[Guild, ...]
    columns: tuple[int, ...]
    setup_wealth_column: int
    setup_building_column: int
    track: tuple[int, ...]
    districts: tuple[District, ...]
    tactics: tuple[Tactic, ...]
    agents_per_guild: int
    buildings_per_guild: int
    statues: int
    debt_markers: int
    flags_per_player: int
    starting_wealth: int
    statue_value: int
    actions_per_turn: int
    final_actions: int
    max_dismiss: int
    max_borrow: int
    district_max_buildings: int
    district_max_statues: int
    # End the game in a stalemate (no unemployed and no waiting agents left),
    # which the rulebook's two triggers can no longer reach. Project default.
    stalemate_ends: bool = True

    @property
    def guild_ids(self) -> list[str]:
        return [g.id for g in self.guilds]

    def guild(self, gid: str) -> Guild:
        return next(g for g in self.guilds if g.id == gid)

    @property
    def district_ids(self) -> list[str]:
        return [d.id for d in self.districts]

    def district(self, did: str) -> District:
        return next(d for d in self.districts if d.id == did)

    def tactics_of(self, gid: str) -> list[Tactic]:
        return [t for t in self.tactics if t.guild == gid]

    def tactic(self, tid: str) -> Tactic | None:
        return next((t for t in self.tactics if t.id == tid), None)


def _need(mapping: Any, key: str, kind: type, where: str) -> Any:
    if not isinstance(mapping, dict) or key not in mapping:
        raise DataFileError(f"{where}: missing '{key}'", file=DATA_FILE)
    value = mapping[key]
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise DataFileError(f"{where}.{key}: expected {kind.__name__}, got {value!r}", file=DATA_FILE)
    return value


def _counts(raw: Any, guilds: list[str], where: str) -> dict[str, int]:
    if raw is None:
        return {}
    if not isinstance(raw, dict):
        raise DataFileError(f"{where}: expected a mapping of guild to count", file=DATA_FILE)
    out: dict[str, int] = {}
    for gid, n in raw.items():
        if gid not in guilds or not isinstance(n, int) or n < 0:
            raise DataFileError(f"{where}: bad entry {gid}: {n!r}", file=DATA_FILE)
        out[str(gid)] = n
    return out


def read_rules(data: dict[str, Any]) -> Rules:
    """Check and convert the variant data; every fault names where it is."""
    if not data:
        raise DataFileError("no game data", file=DATA_FILE, hint="restore variants/age-of-ambition.yaml")
    comp = _need(data, "components", dict, "top level")
    guilds = tuple(Guild(str(_need(g, "id", str, "guilds[]")), str(_need(g, "name", str, "guilds[]")),
                         str(_need(g, "agent", str, "guilds[]")), str(_need(g, "agents", str, "guilds[]")))
                   for g in _need(data, "guilds", list, "top level"))
    gids = [g.id for g in guilds]
    economy = _need(data, "economy", dict, "top level")
    columns = tuple(_need(economy, "columns", list, "economy"))
    if not columns or not all(isinstance(c, int) and c >= 0 for c in columns):
        raise DataFileError("economy.columns: expected a list of column values", file=DATA_FILE)
    wcol = _need(economy, "setup_wealth_column", int, "economy")
    bcol = _need(economy, "setup_building_column", int, "economy")
    if wcol not in columns or bcol not in columns:
        raise DataFileError("economy: setup columns must appear in economy.columns", file=DATA_FILE)
    track = tuple(_need(_need(data, "alliance_track", dict, "top level"), "values", list, "alliance_track"))
    if not track or not all(isinstance(v, int) for v in track):
        raise DataFileError("alliance_track.values: expected a list of integers", file=DATA_FILE)
    districts: list[District] = []
    for i, d in enumerate(_need(data, "districts", list, "top level")):
        where = f"districts[{i}]"
        req = d.get("requires", {}) if isinstance(d, dict) else {}
        districts.append(District(str(_need(d, "id", str, where)), str(_need(d, "name", str, where)),
                                  _counts(req.get("buildings"), gids, where + ".requires.buildings"),
                                  _counts(req.get("agents"), gids, where + ".requires.agents")))
    tactics: list[Tactic] = []
    for i, t in enumerate(_need(data, "tactics", list, "top level")):
        where = f"tactics[{i}]"
        effect = _need(t, "effect", str, where)
        guild = _need(t, "guild", str, where)
        if effect not in EFFECTS:
            raise DataFileError(f"{where}: unknown effect {effect!r}", file=DATA_FILE,
                                hint="one of " + ", ".join(EFFECTS))
        if guild not in gids:
            raise DataFileError(f"{where}: unknown guild {guild!r}", file=DATA_FILE)
        amount = t.get("amount", "X")
        if not isinstance(amount, int) and not _AMOUNT.match(str(amount)):
            raise DataFileError(f"{where}.amount: expected X, X+n, X-n or a number", file=DATA_FILE)
        params = {k: v for k, v in t.items() if k not in ("id", "guild", "name", "effect", "text", "source")}
        tactics.append(Tactic(_need(t, "id", str, where), guild, _need(t, "name", str, where), effect,
                              params, str(t.get("text", "")), str(t.get("source", "default"))))
    ints = {k: _need(comp, k, int, "components") for k in (
        "agents_per_guild", "buildings_per_guild", "statues", "debt_markers", "flags_per_player",
        "starting_wealth", "statue_value", "actions_per_turn", "final_actions", "max_dismiss",
        "max_borrow", "district_max_buildings", "district_max_statues")}
    options = data.get("rules") or {}
    if not isinstance(options, dict) or not isinstance(options.get("stalemate_ends", True), bool):
        raise DataFileError("rules.stalemate_ends: expected true or false", file=DATA_FILE)
    return Rules(guilds=guilds, columns=columns, setup_wealth_column=wcol, setup_building_column=bcol,
                 track=track, districts=tuple(districts), tactics=tuple(tactics), **ints,
                 stalemate_ends=bool(options.get("stalemate_ends", True)))
