"""Variants: YAML -> Variant (map, powers, start, victory, and its rule set).

The variant file is data only. Rule changes are named by `rules:`; the
loader (adjudicator.rules.load_variant) finds that rule set and the Variant
carries it as `variant.rules`, so the phases never look a rule set up by
name and never test a variant's name. `rules:` is a rule-set name, or a
mapping of the name and the rule set's options:

    rules: {name: standard, rules_edition: 2000}

Options a rule set reads are listed, with their choices, in RULE_OPTIONS;
a game lays its own (game.yaml's `options:`) over the variant file's."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from adjudicator.diplomacy.hooks import RuleSet
from adjudicator.diplomacy.mapgraph import MapGraph, load_map, normalise_name
from adjudicator.diplomacy.model import Unit, UnitType
from adjudicator.errors import DataFileError
from adjudicator.store.packagedata import package_folder

VARIANTS_DIR = package_folder("adjudicator.variants")      # variants/ of the clone, or of the installed wheel

# Rule options a variant or a game may set, and their allowed values. Each
# rule choice the engine has is one option; `rules_edition` picks the reading
# of every other option a game leaves unset (EDITION_DEFAULTS).
RULE_OPTIONS: dict[str, tuple[str, ...]] = {
    # Which rulebook (and DATC edition) the game plays: 2000 (4th edition,
    # DATC 2.4's preferences) or 2023 (DATC 3.0's).
    "rules_edition": ("2000", "2023"),
    # An army ordered 'via convoy' that no fleet convoys: it moves over land
    # where it can (DATC 2.4 6.G.8), or it does not move (2023, DATC 3.0).
    "via_convoy_fallback": ("land_route", "none"),
    # A convoy order its fleet is needed for on no convoy route (DATC 6.G.19):
    # legal, and it shows the army's intent to go by convoy (2000), or illegal
    # and ignored, showing no intent (2023, DATC 4.E.1).
    "unnecessary_convoy": ("shows_intent", "illegal"),
    # Civil-disorder disbands count distance to the home supply centres, owned
    # or not, fleets by water only (2000, DATC 2.4), or to every owned centre,
    # fleets and armies alike over land and sea (2023, DATC 3.0 6.J).
    "civil_disorder_distance": ("home_centres", "owned_centres"),
}

# The DATC edition whose preferred results each rules edition gives.
DATC_EDITIONS = {"2000": "2.4", "2023": "3.0"}

# Each edition's reading of every other option.
EDITION_DEFAULTS: dict[str, dict[str, str]] = {
    "2000": {"via_convoy_fallback": "land_route", "unnecessary_convoy": "shows_intent",
             "civil_disorder_distance": "home_centres"},
    "2023": {"via_convoy_fallback": "none", "unnecessary_convoy": "illegal",
             "civil_disorder_distance": "owned_centres"},
}


@dataclass(frozen=True)
class PowerInfo:
    id: str
    name: str
    adjective: str
    code: str
    colour: str
    home_centres: tuple[str, ...]
    owned_centres: tuple[str, ...]
    units: tuple[Unit, ...]
    extra: dict[str, Any] = field(default_factory=dict, hash=False, compare=False)
    # The land of its home country that is not a supply centre (the board's
    # Burgundy for France): it controls it when the game starts.
    home_territory: tuple[str, ...] = ()


@dataclass(frozen=True)
class MinorPower:
    """A power that no player plays, moved by the variant's rules (A&E's minor
    powers): its name, its starting units as written, and the variant's own
    attributes of it (A&E: religion, territory), which only its rules read."""
    id: str
    name: str
    units: tuple[str, ...]
    traits: dict[str, Any] = field(default_factory=dict, hash=False, compare=False)


@dataclass(frozen=True)
class Variant:
    id: str
    name: str
    map: MapGraph
    rules: RuleSet[Variant]
    start_year: int
    seasons: tuple[str, ...]
    victory_centres: int
    powers: dict[str, PowerInfo]
    extra: dict[str, Any]
    source: str
    rule_options: dict[str, str] = field(default_factory=dict)
    # The options a game set over the variant file's (game.yaml's `options:`):
    # its state files carry them, so `check --state` plays the same rules.
    game_options: dict[str, str] = field(default_factory=dict)
    minor_powers: dict[str, MinorPower] = field(default_factory=dict)

    def rule_option(self, key: str) -> str:
        """A rule option's value: as set, else the edition's reading, else the first."""
        value = self.rule_options.get(key)
        if value is not None:
            return value
        if key != "rules_edition":
            edition = EDITION_DEFAULTS[self.rule_option("rules_edition")].get(key)
            if edition is not None:
                return edition
        return RULE_OPTIONS[key][0]

    def rules_summary(self) -> str:
        """The rules a game plays, as reports print them: the edition, then
        each option set apart from it ('the 2023 rulebook (DATC 3.0); unnecessary_convoy=shows_intent')."""
        edition = self.rule_option("rules_edition")
        defaults = EDITION_DEFAULTS[edition]
        apart = [f"{k}={v}" for k, v in sorted(self.rule_options.items())
                 if k != "rules_edition" and defaults.get(k, RULE_OPTIONS[k][0]) != v]
        return "; ".join([f"the {edition} rulebook (DATC {DATC_EDITIONS[edition]})", *apart])

    def with_rule_options(self, options: dict[str, Any], source: str | None = None,
                          where: str = "rules") -> Variant:
        """The same variant with these rule options set (checked; a fault names `source`)."""
        checked = check_rule_options(options, source or self.source, where)
        return replace(self, rule_options={**self.rule_options, **checked},
                       game_options={**self.game_options, **checked})

    _power_names: dict[str, str] = field(default_factory=dict, init=False, repr=False, compare=False)
    # What other modules build once from the variant and keep with it (the
    # order parser): one per variant, gone with it; not a module-level cache.
    derived: dict[str, object] = field(default_factory=dict, init=False, repr=False, compare=False)

    def power_table(self) -> dict[str, str]:
        """Every normalised id, name, adjective, code and alias of a power -> its id."""
        if not self._power_names:
            table = self._power_names        # built once per variant, on the variant
            for pid, power in self.powers.items():
                for name in (pid, power.name, power.adjective, power.code, *power.extra.get("aliases", [])):
                    if name:
                        table.setdefault(normalise_name(str(name)), pid)
        return self._power_names

    def power_lookup(self, text: str) -> str | None:
        """A power's id from its id, name, adjective, code or an alias, in any case."""
        return self.power_table().get(normalise_name(text))

    def power_name(self, power: str | None) -> str:
        """A Great Power's or a minor power's name as reports print it."""
        if power is None:
            return "?"
        info = self.powers.get(power)
        if info is not None:
            return info.name
        minor = self.minor_powers.get(power)
        return minor.name if minor is not None else power.title()

    def power_suggestion(self, text: str = "") -> str:
        """'did you mean England?' for a near miss, else the list of powers."""
        import difflib
        names = {normalise_name(p.name): p.name for p in self.powers.values()}
        close = difflib.get_close_matches(normalise_name(text), list(names), n=1, cutoff=0.6)
        if close:
            return f"did you mean {names[close[0]]}?"
        return "powers are " + ", ".join(p.name for p in self.powers.values())


def parse_unit(text: str, power: str, graph: MapGraph, source: str, entry: str) -> Unit:
    parts = str(text).split()
    if len(parts) != 2 or parts[0].upper() not in ("A", "F"):
        raise DataFileError(f"{entry}: unit {text!r} should look like 'A par' or 'F spa/nc'", file=source)
    unit_type = UnitType(parts[0].upper())
    location = parts[1].lower()
    if not graph.can_stand(unit_type, location):
        kind = "an army" if unit_type is UnitType.ARMY else "a fleet"
        raise DataFileError(f"{entry}: {kind} cannot stand in {location!r}", file=source)
    return Unit(power, unit_type, location)


def check_rule_options(options: dict[str, Any], source: str, where: str = "rules") -> dict[str, str]:
    """Options checked against RULE_OPTIONS: an unknown key or value is one
    line naming the file, the key and the allowed values."""
    if not isinstance(options, dict):
        raise DataFileError(f"{where}: should be a mapping like {{rules_edition: 2023}}", file=source)
    checked: dict[str, str] = {}
    for key, value in options.items():
        choices = RULE_OPTIONS.get(str(key))
        if choices is None:
            raise DataFileError(f"{where}: unknown option {key!r}", file=source,
                                hint="options: " + "; ".join(f"{k}: {' | '.join(v)}" for k, v in RULE_OPTIONS.items()))
        if str(value) not in choices:
            raise DataFileError(f"{where}.{key}: {value!r} is not one of {' | '.join(choices)}", file=source)
        checked[str(key)] = str(value)
    return checked


def parse_rules(value: Any, source: str) -> tuple[str, dict[str, str]]:
    """`rules:` -> (rule-set name, options)."""
    if value is None:
        return "standard", {}
    if isinstance(value, dict):
        options = dict(value)
        name = str(options.pop("name", "standard"))
        return name, check_rule_options(options, source)
    return str(value), {}


def parse_variant(data: Any, source: str, variant_id: str,
                  rule_set: Callable[[str, str], RuleSet[Variant]]) -> Variant:
    """A variant file's data -> Variant; `rule_set(name, source)` gives the
    rule set its `rules:` names (or raises a DataFileError)."""
    if not isinstance(data, dict):
        raise DataFileError("a variant file is a mapping", file=source)
    for key in ("map", "powers", "start"):
        if key not in data:
            raise DataFileError(f"missing '{key}'", file=source)
    if not isinstance(data["powers"], dict) or not all(isinstance(e, dict) for e in data["powers"].values()):
        raise DataFileError("powers: should map each power to {name, home_centres, units, ...}", file=source)
    start = data["start"]
    if not isinstance(start, dict) or not str(start.get("year", "")).isdigit():
        raise DataFileError("start: should be like {year: 1901}", file=source)
    graph = load_map(str(data["map"]))
    powers: dict[str, PowerInfo] = {}
    for pid, entry in data["powers"].items():
        pid = str(pid)
        where = f"powers.{pid}"
        for centre in [*entry.get("home_centres", []), *entry.get("owned_centres", [])]:
            if centre not in graph.supply_centres:
                raise DataFileError(f"{where}: {centre!r} is not a supply centre of the map", file=source)
        units = tuple(parse_unit(u, pid, graph, source, where) for u in entry.get("units", []))
        # One province may be written alone: 'home_territory: bur'.
        territory = entry.get("home_territory") or []
        territory = territory if isinstance(territory, list) else [territory]
        for province in territory:
            if province not in graph.provinces or province in graph.supply_centres \
                    or graph.provinces[province].terrain == "sea":
                raise DataFileError(f"{where}.home_territory: {province!r} is not land without a supply centre",
                                    file=source, hint="list the home country's other land, e.g. [bur, gas, pic]")
        known = {"name", "adjective", "code", "colour", "home_centres", "owned_centres", "units", "home_territory"}
        powers[pid] = PowerInfo(
            id=pid, name=str(entry.get("name", pid.title())),
            adjective=str(entry.get("adjective", "")), code=str(entry.get("code", "")),
            colour=str(entry.get("colour", "#888888")),
            home_centres=tuple(entry.get("home_centres", [])),
            owned_centres=tuple(entry.get("owned_centres", [])),
            units=units, extra={k: v for k, v in entry.items() if k not in known},
            home_territory=tuple(str(x) for x in territory))
    rules, rule_options = parse_rules(data.get("rules"), source)
    known_top = {"name", "map", "rules", "start", "seasons", "victory", "powers", "minor_powers"}
    return Variant(
        id=variant_id, name=str(data.get("name", variant_id)), map=graph,
        rules=rule_set(rules, source), start_year=int(start["year"]),
        seasons=tuple(data.get("seasons", ["spring", "fall"])),
        victory_centres=int((data.get("victory") or {}).get("centres", 18)),
        powers=powers, extra={k: v for k, v in data.items() if k not in known_top}, source=source,
        rule_options=rule_options, minor_powers=parse_minor_powers(data.get("minor_powers"), source))


def parse_minor_powers(value: Any, source: str) -> dict[str, MinorPower]:
    """`minor_powers: {alg: {name: Algiers, units: [F alg], religion: islamic}}`."""
    if value is None:
        return {}
    if not isinstance(value, dict) or not all(isinstance(v, dict) for v in value.values()):
        raise DataFileError("minor_powers: should map each minor power to {name, units, ...}", file=source)
    minors: dict[str, MinorPower] = {}
    for mid, entry in value.items():
        units = entry.get("units") or []
        if not isinstance(units, list):
            raise DataFileError(f"minor_powers.{mid}.units: should be a list like [A swi]", file=source)
        minors[str(mid)] = MinorPower(
            id=str(mid), name=str(entry.get("name", str(mid).title())), units=tuple(str(u) for u in units),
            traits={str(k): v for k, v in entry.items() if k not in ("name", "units")})
    return minors
