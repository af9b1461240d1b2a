"""The phases the benchmarks measure, and the text forms they are written in.

Three kinds of Standard movement phase, each the same on every run (seeded):

- random: `count` units anywhere they may stand, each with a random order of
  any type (45% moves to a neighbour; supports and convoys of random units,
  so some are void, as in careless play). The benchmark's phases since it began.
- realistic: whole games played from the Standard start by players who
  order as players do. A unit moves towards a centre it does not own, an
  empty province or an enemy; units that do not move support a move of
  their own power into a province they reach (now and then an ally's), or
  hold a neighbour; armies on the coast go by convoy through their own
  fleets, one or two seas, to a coast they could not reach over land.
  Retreats go to an open province; winter builds fill free home centres.
  Every movement phase of those games, 22 to 34 units.
- real: three 34-unit mid-game movement phases of "Describe", a game of the
  Diplomacy Showcase (devel.diplom.org), as jDip's and godip's real-game test
  file gives them (real.txt); the positions and orders are game records,
  written here in our own notation.

Each phase can be written three ways, as players write orders:
- headings: a power's name on a line, then `str(order)` ('A par - bur');
- prefixed: the power on every line, in the DATC file's compact form
  ('Austria: A bud-gal', 'England: F nth C A lon-nwy');
- full names: headings, then full names in mixed case ('A Budapest - Galicia',
  'f North Sea convoys A London - Norway', 'Army Munich Supports A Berlin').

MILA's `diplomacy` package takes each power's orders as a list; it is given
the same orders in the same three forms (the power prefix is ours to read:
MILA is handed each power's list)."""

from __future__ import annotations

import random
from dataclasses import dataclass

from adjudicator.diplomacy.game import adjudicate_lines
from adjudicator.diplomacy.lines import ParsedLine
from adjudicator.diplomacy.mapgraph import MapGraph
from adjudicator.diplomacy.model import Unit, UnitType, province_of
from adjudicator.diplomacy.orders import (
    Build,
    Convoy,
    Disband,
    Hold,
    Move,
    Order,
    Retreat,
    SupportHold,
    SupportMove,
)
from adjudicator.diplomacy.state import GameState
from adjudicator.diplomacy.statefile import initial_state
from adjudicator.diplomacy.variant import Variant
from adjudicator.output.report import long_form

Position = dict[str, Unit]


@dataclass
class Phase:
    """One movement phase to measure: who stands where, and their orders."""

    units: Position
    orders: list[Order]


# --- random phases --------------------------------------------------------------------------
def random_phase(rng: random.Random, graph: MapGraph, powers: list[str], count: int) -> Phase:
    """`count` units anywhere they may stand, each with a random order of any type."""
    units: Position = {}
    provinces = sorted(graph.provinces)
    while len(units) < count:
        prov = rng.choice(provinces)
        if prov in units:
            continue
        terrain = graph.provinces[prov].terrain
        kind = UnitType.ARMY if terrain == "land" else UnitType.FLEET if terrain == "sea" else \
            rng.choice([UnitType.ARMY, UnitType.FLEET])
        units[prov] = Unit(rng.choice(powers), kind, prov if kind is UnitType.ARMY else rng.choice(graph.fleet_locations(prov)))
    occupied = sorted(units)
    orders: list[Order] = []
    for prov in occupied:
        unit = units[prov]
        near = sorted(graph.army_adjacent.get(prov, ()) if unit.type is UnitType.ARMY
                      else graph.fleet_adjacent.get(unit.location, ())) or [prov]
        args = (unit.power, unit.type, unit.location)
        roll = rng.random()
        other = rng.choice(occupied)
        if roll < 0.45:
            orders.append(Move(*args, rng.choice(near)))
        elif roll < 0.65:
            orders.append(SupportMove(*args, units[other].type, other, rng.choice(near).split("/")[0]))
        elif roll < 0.8:
            orders.append(SupportHold(*args, units[other].type, other))
        elif roll < 0.9 and unit.type is UnitType.FLEET:
            orders.append(Convoy(*args, other, rng.choice(provinces)))
        else:
            orders.append(Hold(*args))
    return Phase(units, orders)


def random_phases(variant: Variant, phases: int) -> list[Phase]:
    """The same random phases on every run (seed 1901), 18-34 units each."""
    rng = random.Random(1901)
    powers = list(variant.powers)
    return [random_phase(rng, variant.map, powers, rng.randint(18, 34)) for _ in range(phases)]


# --- realistic phases: games played as players play ----------------------------------------
def reachable(graph: MapGraph, unit: Unit) -> dict[str, str]:
    """Where a unit may move, by province: the location it moves to."""
    if unit.type is UnitType.ARMY:
        return {p: p for p in sorted(graph.army_adjacent.get(unit.province, ()))}
    return {province_of(loc): loc for loc in sorted(graph.fleet_adjacent.get(unit.location, ()))}


def wanted(state: GameState, graph: MapGraph, power: str, prov: str) -> float:
    """How much a power wants to move into a province: a centre it does not
    own most, then an empty province, then an enemy's, never its own unit's."""
    unit = state.units.get(prov)
    if unit is not None and unit.power == power:
        return 0.1
    weight = 1.0 if unit is None else 0.8
    if prov in graph.supply_centres and state.centres.get(prov) != power:
        weight += 2.5
    return weight


def plan_convoys(rng: random.Random, state: GameState, graph: MapGraph, orders: dict[str, Order]) -> None:
    """Armies on the coast that go by convoy: through one of their own
    fleets in a sea beside them, or two in a row, to a coast they cannot
    reach over land."""
    units = state.units
    fleets_at = {p: u for p, u in units.items() if u.type is UnitType.FLEET and graph.terrain[p] == "sea"}
    for prov, army in sorted(units.items()):
        if army.type is not UnitType.ARMY or prov in orders or rng.random() > 0.25:
            continue
        for sea in sorted(graph.seas_touching.get(prov, ())):
            fleet = fleets_at.get(sea)
            if fleet is None or fleet.power != army.power or sea in orders:
                continue
            chain = [sea]
            beyond = [p for p, f in fleets_at.items() if f.power == army.power and p not in orders
                      and p != sea and p in {province_of(x) for x in graph.fleet_adjacent.get(sea, ())}]
            if beyond and rng.random() < 0.3:
                chain.append(rng.choice(beyond))
            coasts = sorted({p for p in graph.provinces if graph.terrain[p] == "coast"
                             and chain[-1] in graph.seas_touching.get(p, ()) and p != prov
                             and p not in graph.army_adjacent.get(prov, ()) and p not in orders})
            if not coasts:
                continue
            dest = rng.choice(coasts)
            orders[prov] = Move(army.power, UnitType.ARMY, prov, dest)
            for s in chain:
                orders[s] = Convoy(army.power, UnitType.FLEET, s, prov, dest)
            break


def realistic_orders(rng: random.Random, state: GameState, graph: MapGraph) -> list[Order]:
    """One movement phase's orders, as players give them (see the module's docstring)."""
    units = state.units
    orders: dict[str, Order] = {}
    plan_convoys(rng, state, graph, orders)
    for prov, unit in sorted(units.items()):
        if prov in orders or rng.random() > 0.5:
            continue
        options = reachable(graph, unit)
        if not options:
            continue
        targets = sorted(options)
        weights = [wanted(state, graph, unit.power, p) for p in targets]
        dest = rng.choices(targets, weights)[0]
        orders[prov] = Move(unit.power, unit.type, unit.location, options[dest])
    moves = {p: o for p, o in orders.items() if isinstance(o, Move)}
    for prov, unit in sorted(units.items()):
        if prov in orders:
            continue
        options = reachable(graph, unit)
        helpable = [(p, m) for p, m in moves.items() if m.dest_province in options
                    and (units[p].power == unit.power or rng.random() < 0.15)]
        holders = [p for p in options if p in units and p not in moves and units[p].power == unit.power]
        roll = rng.random()
        if helpable and roll < 0.75:
            p, move = rng.choice(helpable)
            orders[prov] = SupportMove(unit.power, unit.type, unit.location, move.unit_type, p, move.dest_province)
        elif holders and roll < 0.9:
            p = rng.choice(holders)
            orders[prov] = SupportHold(unit.power, unit.type, unit.location, units[p].type, p)
        else:
            orders[prov] = Hold(unit.power, unit.type, unit.location)
    return [orders[p] for p in sorted(orders)]


def retreat_or_disband(rng: random.Random, state: GameState) -> list[Order]:
    out: list[Order] = []
    for _, dislodged in sorted(state.dislodged.items()):
        unit = dislodged.unit
        if dislodged.retreats and rng.random() < 0.85:
            out.append(Retreat(unit.power, unit.type, unit.location, rng.choice(dislodged.retreats)))
        else:
            out.append(Disband(unit.power, unit.type, unit.location))
    return out


def adjust(rng: random.Random, variant: Variant, state: GameState) -> list[Order]:
    """Builds in free home centres (a fleet where the centre is on the coast,
    now and then); disbands of random units. Civil disorder does the rest."""
    graph = variant.map
    out: list[Order] = []
    for power in variant.powers:
        owned = state.centres_of(power)
        mine = sorted(u.province for u in state.units.values() if u.power == power)
        delta = len(owned) - len(mine)
        if delta > 0:
            free = [c for c in variant.powers[power].home_centres if c in owned and c not in state.units]
            for centre in rng.sample(free, min(delta, len(free))):
                coasts = graph.fleet_locations(centre) if graph.terrain[centre] == "coast" else []
                if coasts and rng.random() < 0.4:
                    out.append(Build(power, UnitType.FLEET, coasts[0]))
                else:
                    out.append(Build(power, UnitType.ARMY, centre))
        for prov in rng.sample(mine, min(max(0, -delta), len(mine))):
            unit = state.units[prov]
            out.append(Disband(power, unit.type, unit.location))
    return out


def play(variant: Variant, state: GameState, orders: list[Order]) -> GameState:
    lines = [ParsedLine(n, str(o), o.power, o) for n, o in enumerate(orders, 1)]
    return adjudicate_lines(variant, state, lines).next_state


def realistic_phases(variant: Variant, phases: int, seed: int = 1901, years: int = 12) -> list[Phase]:
    """Every movement phase of games played from the Standard start (each
    game `years` years long) until there are `phases`."""
    rng = random.Random(seed)
    graph = variant.map
    out: list[Phase] = []
    while len(out) < phases:
        state = initial_state(variant)
        last = state.phase.year + years
        while len(out) < phases and state.result is None and state.phase.year < last:
            kind = state.phase.kind
            if kind == "movement":
                orders = realistic_orders(rng, state, graph)
                out.append(Phase(dict(state.units), orders))
            elif kind == "retreat":
                orders = retreat_or_disband(rng, state)
            else:
                orders = adjust(rng, variant, state)
            state = play(variant, state, orders)
    return out


# --- real phases: "Describe", from the Diplomacy Showcase -----------------------------------
# Each: (power, unit, order) for all 34 units, in DATC notation.
DESCRIBE = {
    "Spring 1910": """
austria A bul - ser | austria A sil - mun | austria F con - bul/sc | austria A rum H
austria A boh S A sil - mun | austria A tyr S A sil - mun | austria A tri H
england F spa/sc - mar | england F nth S A hol | england F por S F mao | england F bal - ber
england F mao C A bre - spa | england A kie S A mun | england A gas S A bre - spa | england A bre - spa
england A hol S A kie | england F lon - eng | france A mar - spa | germany A mun S A sil - ber
germany A bur S F spa - mar | germany A ruh S A mun | italy A ven - pie | italy A tun - naf
italy F smy S F aeg - con | italy F naf - wes | italy F wes - lyo | italy F aeg - con
russia A nwy H | russia A ukr S A war | russia A ank S F con | russia A war S A ukr
russia A ber S A boh - mun | russia F sev - bla | russia F stp/sc H""",
    "Fall 1910": """
austria A ser S F bul | austria A sil - mun | austria F bul/sc H | austria A rum S F bul
austria A boh S A sil - mun | austria A tyr S A sil - mun | austria A tri H
england F mar S F mao - spa/sc | england F nth H | england F por S F mao - spa/sc | england F bal - ber
england F mao - spa/sc | england A kie S A mun | england A gas - bre | england A spa - gas
england A hol H | england F eng - mao | germany A mun S A ber - sil | germany A bur S F mar
germany A ruh S A mun | italy A pie - mar | italy A naf H | italy F smy S F con | italy F wes S F lyo
italy F lyo S F wes | italy F con H | russia A nwy - swe | russia A ukr S A war | russia A ank H
russia A war S A ukr | russia A ber S A sil - mun | russia F bla S A ank | russia F stp/sc H""",
    "Fall 1912": """
austria A bul S F gre | austria A gal H | austria F gre S A bul | austria A rum S A bul
austria A tri - ven | austria A tyr S A tri - ven | austria A ser S A rum | england F lyo - tys
england F nwy - swe | england F mar - pie | england F bal - bot | england F ion - gre
england A den S F nwy - swe | england A pic - par | england A tus S A pie - ven | england A kie S A mun - ber
england F tys - rom | england F nth - nwy | germany A mun - ber | germany A bur - mun
germany A ruh S A bur - mun | italy A pie - ven | italy F eas S F aeg | italy F apu S A pie - ven
italy F aeg S F ion - gre | russia A swe - nwy | russia A sev - mos | russia A ank S A smy
russia A war - pru | russia A sil - ber | russia F con S A smy | russia F stp/sc H
russia A smy S F con | russia A ukr - war""",
}


def real_phases(variant: Variant) -> list[Phase]:
    """The three "Describe" phases: each order's unit stands where it is ordered from."""
    from adjudicator.diplomacy.parser import parser_for
    parser = parser_for(variant)
    out = []
    for text in DESCRIBE.values():
        orders: list[Order] = []
        for entry in text.replace("\n", " | ").split(" | "):
            if not entry.strip():
                continue
            power, order_text = entry.strip().split(" ", 1)
            order = parser.parse_order(order_text, power)
            assert isinstance(order, Order), entry
            orders.append(order)
        units = {o.province: Unit(o.power, o.unit_type or UnitType.ARMY, o.location) for o in orders}
        out.append(Phase(units, orders))
    return out


# --- the text forms ---------------------------------------------------------------------------
def compact(order: Order) -> str:
    """The DATC file's compact form: 'A bud-gal', 'F nth C A lon-nwy'."""
    return str(order).replace(" - ", "-")


ORDER_WORDS = {" S ": (" S ", " s ", " supports ", " Supports "), " C ": (" C ", " c ", " convoys ", " Convoys ")}
HOLD_WORDS = (" H", " h", " holds", " Hold")
UNIT_WORDS = {"A": ("A", "a", "Army", "army"), "F": ("F", "f", "Fleet", "fleet")}


def full_names(order: Order, graph: MapGraph, rng: random.Random) -> str:
    """Full names as the map gives them, the order words and unit words in
    one of the ways players write them ('f North Sea convoys A London - Norway')."""
    text = long_form(str(order), graph)
    for word, forms in ORDER_WORDS.items():
        if word in text:
            text = text.replace(word, rng.choice(forms), 1)
    if text.endswith(" H"):
        text = text[:-2] + rng.choice(HOLD_WORDS)
    first, rest = text.split(" ", 1)
    return f"{rng.choice(UNIT_WORDS.get(first, (first,)))} {rest}"


def headings(variant: Variant, lines_by_power: dict[str, list[str]]) -> str:
    return "\n\n".join(f"{variant.powers[p].name}:\n" + "\n".join(lines) for p, lines in lines_by_power.items()) + "\n"


def by_power(orders: list[Order], write: object) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for order in orders:
        out.setdefault(order.power, []).append(write(order))    # type: ignore[operator]
    return out


FORMS = ("headings", "prefixed", "full names")


def phase_text(variant: Variant, phase: Phase, form: str) -> str:
    """The phase's orders as one orders text, in one of FORMS."""
    if form == "headings":
        return headings(variant, by_power(phase.orders, str))
    if form == "prefixed":
        return "".join(f"{variant.powers[p].name}: {line}\n"
                       for p, lines in by_power(phase.orders, compact).items() for line in lines)
    rng = random.Random(len(phase.orders) * 7919 + len(phase.units))
    return headings(variant, by_power(phase.orders, lambda o: full_names(o, variant.map, rng)))


def mila_orders(variant: Variant, phase: Phase, form: str) -> dict[str, list[str]]:
    """The same orders as MILA takes them, by MILA's name of each power:
    MILA's own form ('A BUD - GAL') for headings, the compact form without
    our power prefix, or the same full names."""
    if form == "headings":
        write = mila_order
    elif form == "prefixed":
        write = compact
    else:
        rng = random.Random(len(phase.orders) * 7919 + len(phase.units))
        return {p.upper(): lines for p, lines in by_power(phase.orders, lambda o: full_names(o, variant.map, rng)).items()}
    return {p.upper(): lines for p, lines in by_power(phase.orders, write).items()}


def mila_order(order: Order) -> str:
    """MILA's own notation: 'A BUD - GAL', 'F NTH C A LON - NWY', 'A MUN S A BER - SIL'."""
    return str(order).upper().replace(" VIA CONVOY", " VIA")
