"""The hook interface through which a variant changes the rules.

A RuleSet is a frozen record of functions. `rules/standard.py` fills every
field with the standard rules; a variant replaces fields with
dataclasses.replace. The core calls these hooks and never tests a variant's
name or a rule string.

A Variant carries its RuleSet (`variant.rules`), and every hook receives the
variant. The hooks are typed over the variant (`RuleSet[Variant]`) so that
this interface sits below the Variant that holds it: nothing here imports
the variant module."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from adjudicator.diplomacy.model import Unit

if TYPE_CHECKING:
    from adjudicator.diplomacy.lines import LineExtension, ParsedLine
    from adjudicator.diplomacy.movement_result import MovementResult
    from adjudicator.diplomacy.orders import Order
    from adjudicator.diplomacy.state import GameState
    from adjudicator.errors import OrderError

# The variant a rule set serves: adjudicator.diplomacy.variant.Variant, which holds it.
V = TypeVar("V")

# Can `unit`, standing on `source`, reach `target` for this purpose
# ("move", "support", "retreat")? Fleets name exact locations.
AdjacencyHook = Callable[[V, "GameState", Unit, str, str, str], bool]

# Before resolution: turn parsed lines into the orders to resolve. Returns
# (orders by unit province, void orders by province with reasons, notes).
PreResolveHook = Callable[[V, "GameState", list["ParsedLine"]], "PreResolved"]

# After resolution: provinces whose orders are invalid under the variant's
# rules; the core voids them and resolves again until nothing changes.
PostResolveHook = Callable[[V, "GameState", dict[str, "Order"], "MovementResult"], dict[str, str]]

# After movement: adjust the next state (e.g. minor units dislodged by a Great
# Power are disbanded at once). Returns notes for the report.
AfterMovementHook = Callable[[V, "GameState", "GameState", "MovementResult"], list[str]]

# Winter: where may `power` build? Returns the supply centres.
BuildSitesHook = Callable[[V, "GameState", str], list[str]]

# After adjustments: update variant bookkeeping, rebuild minors... notes for the report.
AfterAdjustmentHook = Callable[[V, "GameState", "GameState"], list[str]]

# After Fall: ownership changes hook (e.g. record conquered centres).
AfterOwnershipHook = Callable[[V, "GameState", "GameState", dict[str, str]], list[str]]

# Victory: the winning power, or None.
VictoryHook = Callable[[V, "GameState"], "str | None"]

# Which powers send orders and get build counts (A&E: minor powers do not).
PlayingPowersHook = Callable[[V, "GameState"], list[str]]

# The starting position beyond the powers' own units and centres (A&E: the
# minor powers in their centres). Edits the state in place.
SetupHook = Callable[[V, "GameState"], None]

# The GM declares a power in civil disorder: the new state and notes for the
# report. Only variants whose rules have such a declaration set this hook.
CivilDisorderHook = Callable[[V, "GameState", str], tuple["GameState", list[str]]]

# Who shares a draw: the surviving powers (standard: every power with a unit or a centre).
SurvivorsHook = Callable[[V, "GameState"], list[str]]

# Does this line allocate rather than order (A&E: a Diplomacy Point line
# buys a minor power's unit its order)? Such a line names another power's
# unit by design, so checks of whose unit an order is for pass it by.
AllocationHook = Callable[["ParsedLine"], bool]



@dataclass
class PreResolved:
    """The verdicts of a movement phase's rules on its lines, before resolution."""

    orders: dict[str, Order]                                            # province -> the valid order
    void: dict[str, tuple[Order, str]] = field(default_factory=dict)   # province -> a void order and the rule it broke
    # Line number -> the error that keeps a line from ordering anything (no
    # such unit, another power's unit, a second order for a unit).
    errors: dict[int, OrderError] = field(default_factory=dict)
    # Lines the rules publish as invalid and go on (A&E: an unusable DP line):
    # their errors need not stop the turn.
    published_invalid: set[int] = field(default_factory=set)
    notes: list[str] = field(default_factory=list)
    private_notes: dict[str, list[str]] = field(default_factory=dict)   # power -> lines only they see
    gm_log: list[str] = field(default_factory=list)                     # secret: GM's files only
    published: dict[str, str] = field(default_factory=dict)             # province -> order text as published
    # Each unit's own power's order as the player wrote it, by province:
    # validation may add or drop a move's 'via convoy', and the report says so.
    written: dict[str, Order] = field(default_factory=dict)


@dataclass(frozen=True)
class RuleSet(Generic[V]):
    name: str
    is_adjacent: AdjacencyHook[V]
    backup_rule: Callable[[dict[str, Order], list[str]], dict[str, bool]]
    pre_resolve: PreResolveHook[V]
    post_resolve: PostResolveHook[V]
    after_movement: AfterMovementHook[V]
    after_ownership: AfterOwnershipHook[V]
    build_sites: BuildSitesHook[V]
    after_adjustment: AfterAdjustmentHook[V]
    victory: VictoryHook[V]
    playing_powers: PlayingPowersHook[V]
    setup: SetupHook[V]
    survivors: SurvivorsHook[V]
    is_allocation: AllocationHook
    civil_disorder: CivilDisorderHook[V] | None = None
    parser_extensions: tuple[LineExtension, ...] = ()
    options: dict[str, Any] = field(default_factory=dict)
