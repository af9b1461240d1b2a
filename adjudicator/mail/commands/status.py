"""`status`: where the game stands, as any player may know it: the phase,
the deadline (or that the GM paused the game), which powers are in and which
are not (never their orders), whether votes are pending (never who voted),
and the absences announced."""

from __future__ import annotations

from typing import Any

from adjudicator.folder.absences import recorded
from adjudicator.folder.gmcontrol import paused_since
from adjudicator.folder.schedule import due_line, format_time
from adjudicator.mail.commands.base import Asked, Command, is_card_game, seat_label


def run(asked: Asked, command: Command) -> str:
    ctx, meta = asked.ctx, asked.meta
    out = [f"Status of {ctx.game}: {ctx.phase}."]
    since = paused_since(meta)
    if since is not None:
        out.append(f"The GM paused the game at {format_time(since)}; no phase is processed until it resumes.")
    else:
        due = due_line(meta, ctx.phase, asked.now, ctx.asks_for)
        out.append(due or "No deadline is set.")
    out += card_standing(asked) if is_card_game(ctx) else diplomacy_standing(asked)
    today = asked.now.date()
    away = [a for a in recorded(meta) if a.end >= today]
    out += [f"{seat_label(ctx, a.seat)} is away from {a.start} to {a.end}." for a in away]
    return "\n".join(out)


def diplomacy_standing(asked: Asked) -> list[str]:
    from adjudicator.folder.orderset import standing_of
    from adjudicator.folder.schedule import must_order
    from adjudicator.folder.votes import read_votes
    ctx: Any = asked.ctx                  # a Diplomacy game's context (ingest_diplomacy.DiplomacyContext)
    variant, state = ctx.variant, ctx.state
    expected = must_order(variant, state)
    ready = standing_of(ctx.folder, variant, state, expected)
    ins = [variant.power_name(p) for p in expected if ready[p].is_in]
    outs = [variant.power_name(p) for p in expected if not ready[p].is_in]
    out = [f"Powers in: {', '.join(ins) or 'none yet'}.", f"Not in yet: {', '.join(outs) or 'none'}."]
    survivors = variant.rules.survivors(variant, state)
    voted = sum(1 for power in survivors if power in read_votes(ctx.folder))
    out.append(f"Votes: {voted} of the {len(survivors)} surviving powers have a vote standing; votes stay "
               "secret until every survivor agrees." if voted else "No votes are standing.")
    return out


def card_standing(asked: Asked) -> list[str]:
    from adjudicator.cards import driver
    ctx: Any = asked.ctx                  # a card game's context (ingest_turns.TurnContext)
    info = ctx.info
    have = {p.stem for p in driver.collected_dir(ctx.folder, ctx.index, info).glob("*.yaml")}
    waiting = [p for p in info.waiting_for if p not in have]
    done = [p for p in info.waiting_for if p in have]
    return [f"Choices in: {', '.join(done) or 'none yet'}.", f"Waiting for: {', '.join(waiting) or 'nobody'}."]
