"""Resources and trade: what a city produces, what neighbours may buy from it,
what they pay, and the cheapest legal way to cover a cost.

A "unit" is one production symbol usable once per turn: a fixed resource
(options of length 1) or a choice ("wood/clay"). Neighbours may buy only
units marked sellable: the board's starting resource, brown and grey cards."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

from adjudicator.cards.seven_wonders.cards import MANUFACTURED, RAW, RESOURCES, Catalog

SIDES = ("left", "right")


@dataclass(frozen=True)
class Unit:
    options: tuple[str, ...]
    sellable: bool
    source: str  # card or board name, for messages


@dataclass(frozen=True)
class Plan:
    """How a cost is covered: what is bought from each side, and at what price."""

    buy: dict[str, list[str]]
    trade_cost: dict[str, int]
    missing: dict[str, int]

    @property
    def coins(self) -> int:
        return sum(self.trade_cost.values())


def stage_effects(cat: Catalog, city: dict[str, Any]) -> list[dict[str, Any]]:
    stages = cat.wonders[city["wonder"]].sides[city["side"]]
    return [stages[i].effect for i in range(int(city["stages"]))]


def units(cat: Catalog, city: dict[str, Any]) -> list[Unit]:
    """Every production unit of a city, board resource first."""
    result = [Unit((cat.wonders[city["wonder"]].resource,), True, city["wonder"])]
    for name in city["built"]:
        card = cat.card(name)
        sellable = card.colour in ("brown", "grey") and card.effect.get("sellable", True)
        for symbol in card.effect.get("produces", []):
            result.append(Unit(tuple(symbol.split("/")), bool(sellable), name))
    for effect in stage_effects(cat, city):
        for symbol in effect.get("produces", []):
            result.append(Unit(tuple(symbol.split("/")), False, city["wonder"]))
    return result


def prices(cat: Catalog, city: dict[str, Any]) -> dict[str, dict[str, int]]:
    """side -> resource -> coins per unit. 2 by default; trading posts,
    Marketplace and Olympia B lower some to 1."""
    table = {side: {r: 2 for r in RESOURCES} for side in SIDES}
    effects = [cat.card(n).effect for n in city["built"]] + stage_effects(cat, city)
    for effect in effects:
        for kind, sides in (effect.get("trade") or {}).items():
            goods = RAW if kind == "raw" else MANUFACTURED
            for side in sides:
                for good in goods:
                    table[side][good] = 1
    return table


def cover(need: dict[str, int], own: list[Unit], bought: dict[str, list[Unit]],
          price: dict[str, dict[str, int]]) -> Plan:
    """The cheapest way to cover `need` with own units (free) and neighbours'
    sellable units (at `price`). If it cannot be covered, the plan with the
    fewest uncovered resources, which are reported as `missing`.

    Dynamic programming over (unit index, resources still needed); the ties
    are broken by the fixed unit order, so the answer is deterministic."""
    order = tuple(r for r in RESOURCES if need.get(r, 0) > 0)
    start = tuple(int(need[r]) for r in order)
    pool: list[tuple[str, Unit]] = [("own", u) for u in own]
    for side in SIDES:
        pool.extend((side, u) for u in bought.get(side, []) if u.sellable)

    @cache
    def best(i: int, left: tuple[int, ...]) -> tuple[int, int, tuple[tuple[int, str], ...]]:
        if not any(left):
            return (0, 0, ())
        if i == len(pool):
            return (sum(left), 0, ())
        result = best(i + 1, left)
        owner, unit = pool[i]
        for res in unit.options:
            if res not in order:
                continue
            k = order.index(res)
            if left[k] == 0:
                continue
            rest = left[:k] + (left[k] - 1,) + left[k + 1:]
            sub = best(i + 1, rest)
            cost = 0 if owner == "own" else price[owner][res]
            cand = (sub[0], sub[1] + cost, ((i, res),) + sub[2])
            if cand[:2] < result[:2]:
                result = cand
        return result

    uncovered, _, picks = best(0, start)
    buy: dict[str, list[str]] = {side: [] for side in SIDES}
    trade_cost = {side: 0 for side in SIDES}
    remaining = dict(zip(order, start))
    for index, res in picks:
        owner, _ = pool[index]
        remaining[res] -= 1
        if owner != "own":
            buy[owner].append(res)
            trade_cost[owner] += price[owner][res]
    missing = {r: n for r, n in remaining.items() if n > 0} if uncovered else {}
    best.cache_clear()
    return Plan(buy={s: sorted(v, key=RESOURCES.index) for s, v in buy.items() if v},
                trade_cost={s: c for s, c in trade_cost.items() if c}, missing=missing)


def can_supply(wanted: list[str], neighbour_units: list[Unit]) -> dict[str, int]:
    """What of `wanted` the neighbour cannot sell this turn (empty: all of it)."""
    need: dict[str, int] = {}
    for res in wanted:
        need[res] = need.get(res, 0) + 1
    plan = cover(need, [u for u in neighbour_units if u.sellable], {}, {s: {} for s in SIDES})
    return plan.missing


def describe(resources: dict[str, int]) -> str:
    return ", ".join(f"{n} {r}" for r, n in resources.items())
