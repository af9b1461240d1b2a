"""The hook interface through which a variant changes the rules.

A RuleSet is a frozen record of functions. `rules/standard.py` fills every
field with the standard rules; a variant replaces fields with
dataclasses.replace. The core calls these hooks and never tests a variant's
name or a rule string."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from adjudicator.model import Unit

if TYPE_CHECKING:
    from adjudicator.mapgraph import MapGraph
    from adjudicator.movement import MovementResult
    from adjudicator.orders import Order
    from adjudicator.parser import LineExtension, ParsedLine
    from adjudicator.state import GameState
    from adjudicator.variant import Variant

# Can `unit`, standing on `source`, reach `target` for this purpose
# ("move", "support", "retreat")? Fleets name exact locations.
AdjacencyHook = Callable[["GameState", "MapGraph", Unit, str, str, str], bool]

# Before resolution: turn parsed lines into the orders to resolve. Returns
# (orders by unit province, void orders by province with reasons, notes).
PreResolveHook = Callable[["Variant", "GameState", list["ParsedLine"]], "PreResolved"]

# After resolution: provinces whose orders are invalid under the variant's
# rules; the core voids them and resolves again until nothing changes.
PostResolveHook = Callable[["Variant", "GameState", dict[str, "Order"], "MovementResult"], dict[str, str]]

# After movement: adjust the next state (e.g. minor units dislodged by a Great
# Power are disbanded at once). Returns notes for the report.
AfterMovementHook = Callable[["Variant", "GameState", "GameState", "MovementResult"], list[str]]

# Winter: where may `power` build? Returns the supply centres.
BuildSitesHook = Callable[["Variant", "GameState", str], list[str]]

# After adjustments: update variant bookkeeping, rebuild minors... notes for the report.
AfterAdjustmentHook = Callable[["Variant", "GameState", "GameState"], list[str]]

# After Fall: ownership changes hook (e.g. record conquered centres).
AfterOwnershipHook = Callable[["Variant", "GameState", "GameState", dict[str, str]], list[str]]

# Victory: the winning power, or None.
VictoryHook = Callable[["Variant", "GameState"], "str | None"]

# Which powers send orders and get build counts (A&E: minor powers do not).
PlayingPowersHook = Callable[["Variant", "GameState"], list[str]]

# The starting position beyond the powers' own units and centres (A&E: the
# minor powers in their centres). Edits the state in place.
SetupHook = Callable[["Variant", "GameState"], None]

# The GM declares a power in civil disorder: the new state and notes for the
# report. Only variants whose rules have such a declaration set this hook.
CivilDisorderHook = Callable[["Variant", "GameState", str], tuple["GameState", list[str]]]

# Who shares a draw: the surviving powers.
SurvivorsHook = Callable[["Variant", "GameState"], list[str]]


def survivors(variant: Variant, state: GameState) -> list[str]:
    """Every power with a unit or a supply centre left."""
    alive = {u.power for u in state.units.values()} | {d.unit.power for d in state.dislodged.values()} \
        | set(state.centres.values())
    return [power for power in variant.powers if power in alive]


@dataclass
class PreResolved:
    orders: dict[str, Order]
    void: dict[str, tuple[Order, str]] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    private_notes: dict[str, list[str]] = field(default_factory=dict)   # power -> lines only they see
    gm_log: list[str] = field(default_factory=list)                     # secret: GM's files only
    published: dict[str, str] = field(default_factory=dict)             # province -> order text as published


@dataclass(frozen=True)
class RuleSet:
    name: str
    is_adjacent: AdjacencyHook
    backup_rule: Callable[[dict[str, Order], list[str]], dict[str, bool]]
    pre_resolve: PreResolveHook
    post_resolve: PostResolveHook
    after_movement: AfterMovementHook
    after_ownership: AfterOwnershipHook
    build_sites: BuildSitesHook
    after_adjustment: AfterAdjustmentHook
    victory: VictoryHook
    playing_powers: PlayingPowersHook
    setup: SetupHook = lambda variant, state: None
    civil_disorder: CivilDisorderHook | None = None
    survivors: SurvivorsHook = survivors
    parser_extensions: tuple[LineExtension, ...] = ()
    options: dict[str, Any] = field(default_factory=dict)
