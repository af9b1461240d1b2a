"""The apprentice display (2 rows of face-up cards by the Workhouse) and hiring.

The display is `state["display"]`: two lists of card ids (None = empty space)
with `state["display_silver"]` alongside, the silver players left on cards
they skipped."""

from __future__ import annotations

from typing import Any

from adjudicator.cards.age_of_artisans.core import (
    Ctx,
    apprentices,
    as_int,
    card_label,
    plural,
)
from adjudicator.cards.age_of_artisans.virtue import change_virtue
from adjudicator.cards.common import State


def find_in_display(state: State, card: int) -> tuple[int, int] | None:
    for r, row in enumerate(state["display"]):
        for c, cid in enumerate(row):
            if cid == card:
                return r, c
    return None


def _draw_apprentice(state: State) -> int | None:
    deck = state["apprentice_deck"]
    return deck.pop(0) if deck else None


def remove_and_slide(state: State, r: int, c: int) -> int:
    """Take the card at (r, c) away; the cards right of it slide left with their
    silver and a new card fills the right-most space. Returns its silver."""
    row, silver = state["display"][r], state["display_silver"][r]
    coins = silver[c]
    del row[c]
    del silver[c]
    row.append(_draw_apprentice(state))
    silver.append(0)
    return int(coins)


def leave_gap(state: State, r: int, c: int) -> int:
    """Take the card at (r, c) away and leave its space empty (the starting
    draft: nothing slides and nothing is drawn until the draft is over)."""
    coins = state["display_silver"][r][c]
    state["display"][r][c] = None
    state["display_silver"][r][c] = 0
    return int(coins)


def fill_gaps(state: State) -> None:
    """After the starting draft, empty spaces are refilled where they are (no sliding)."""
    for r, row in enumerate(state["display"]):
        for c, cid in enumerate(row):
            if cid is None:
                row[c] = _draw_apprentice(state)
                state["display_silver"][r][c] = 0


def aoa_discard(ctx: Ctx) -> None:
    """Age of Artisans rule 2: both apprentices of the left-most column are
    discarded; silver on them returns to the supply; rows slide and refill."""
    cards = apprentices(ctx.data)
    gone = []
    for r in range(len(ctx.state["display"])):
        cid = ctx.state["display"][r][0]
        coins = remove_and_slide(ctx.state, r, 0)
        if cid is not None:
            ctx.state["apprentice_discard"].append(cid)
            gone.append(card_label(cards[cid]) + (f" with {coins} silver" if coins else ""))
    ctx.say("3rd space of a Guildhall row: the left-most apprentices are discarded ("
            + (", ".join(gone) or "none") + ")")


def check_limit(ctx: Ctx, choice: dict[str, Any], field: str) -> bool:
    """Hiring beyond the apprentice limit needs `discard_apprentice: <id>` first."""
    limit = int(ctx.rules.get("apprentice_limit", 5))
    drop = choice.get("discard_apprentice")
    if drop is not None:
        cid = as_int(drop)
        if cid is None or cid not in ctx.me["apprentices"]:
            return ctx.fail("discard_apprentice", f"you have not hired apprentice {drop!r}")
        if len(ctx.me["apprentices"]) < limit:
            return ctx.fail("discard_apprentice", f"only needed at the limit of {limit} apprentices")
        ctx.me["apprentices"].remove(cid)
        ctx.state["apprentice_discard"].append(cid)
        ctx.say(f"{ctx.player} discards apprentice {card_label(apprentices(ctx.data)[cid])}")
        return True
    if len(ctx.me["apprentices"]) >= limit:
        return ctx.fail(field, f"you already have {limit} apprentices: name one to drop with discard_apprentice")
    return True


def take_from_display(ctx: Ctx, value: Any, field: str, choice: dict[str, Any],
                      why: str, max_column: int | None = None, *, slide: bool = True) -> int | None:
    """Hire a face-up apprentice (no payment here). `max_column` (1-based) limits reach;
    `slide=False` leaves the space empty, as in the starting draft."""
    cards = apprentices(ctx.data)
    cid = as_int(value)
    if cid is None or cid not in cards:
        ctx.fail(field, f"unknown apprentice card {value!r} (use its id number)")
        return None
    where = find_in_display(ctx.state, cid)
    if where is None:
        ctx.fail(field, f"apprentice {card_label(cards[cid])} is not face up in the display")
        return None
    if max_column is not None and where[1] + 1 > max_column:
        ctx.fail(field, f"apprentice {card_label(cards[cid])} is in column {where[1] + 1}, beyond your reach")
        return None
    if not check_limit(ctx, choice, field):
        return None
    coins = remove_and_slide(ctx.state, *where) if slide else leave_gap(ctx.state, *where)
    ctx.me["apprentices"].append(cid)
    ctx.me["silver"] += coins
    ctx.say(f"{ctx.player} hires {card_label(cards[cid])} ({why})"
            + (f" and takes the {coins} silver on it" if coins else ""))
    if cards[cid].get("virtue"):
        change_virtue(ctx, ctx.player, int(cards[cid]["virtue"]), f"hiring {cards[cid]['name']}")
    return cid


def workhouse_hire(ctx: Ctx, value: Any, choice: dict[str, Any], workers: int) -> bool:
    """Seed: the left column for 4 (2 tax); further columns with more workers here
    (at most column 4), or by leaving 1 silver on skipped cards, one per column
    beyond reach."""
    from adjudicator.cards.age_of_artisans.core import pay_taxed, tax_relief
    cards = apprentices(ctx.data)
    cid = as_int(value)
    if cid is None or cid not in cards:
        return ctx.fail("hire", f"unknown apprentice card {value!r} (use its id number)")
    where = find_in_display(ctx.state, cid)
    if where is None:
        return ctx.fail("hire", f"apprentice {card_label(cards[cid])} is not face up in the display")
    r, c = where
    reach = min(workers, len(ctx.state["display"][r]))
    skip_cost = max(0, c + 1 - reach)
    # 1 silver per column beyond reach, laid on the row's left-most cards first (BGA; the seed
    # only says "on skipped apprentices")
    skipped = list(range(skip_cost))
    tax_due = max(0, 2 - tax_relief(ctx))
    total = skip_cost + 2 + tax_due
    if ctx.me["silver"] < total:
        return ctx.fail("hire", f"can't afford hiring {card_label(cards[cid])}: costs 2 silver + {tax_due} tax"
                                + (f" + {skip_cost} for skipped apprentices" if skip_cost else "")
                                + f" = {total}, you have {ctx.me['silver']} (missing {total - ctx.me['silver']} silver)")
    ctx.me["silver"] -= skip_cost
    for col in skipped:
        ctx.state["display_silver"][r][col] += 1
    pay_taxed(ctx, 2, 2, "hire", "hiring an apprentice")
    if skip_cost:
        ctx.say(f"{ctx.player} pays {skip_cost} silver to reach column {c + 1} (reach {reach}): "
                f"1 on each of the left-most {plural(skip_cost, 'card')} of row {r + 1}")
    return take_from_display(ctx, cid, "hire", choice, "Workhouse") is not None
