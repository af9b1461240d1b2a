"""`orders`: the sender's own orders for the phase now open, as the judge
holds them (normalised, each void order with its reason), what the set still
lacks, and the player's `ready` or `wait`; a card game's player gets their
stored choice. Nobody else's orders, ever."""

from __future__ import annotations

from typing import Any

from adjudicator.mail.commands.base import Asked, Command, Refused, is_card_game


def run(asked: Asked, command: Command) -> str:
    ctx = asked.ctx
    if asked.verdict.stored is not None:
        return "orders: your orders as this mail leaves them are shown above."
    if is_card_game(ctx):
        return card_choice(asked)
    from adjudicator.folder import orderset
    variant, state = getattr(ctx, "variant", None), getattr(ctx, "state", None)
    if variant is None or state is None:
        raise Refused("this game has no orders")
    held = orderset.read_set(orderset.set_path(ctx.folder, state.phase.slug, asked.seat))
    name = variant.power_name(asked.seat)
    out = [f"Your orders for {state.phase}, as the judge holds them:"]
    if held is None or not held.lines:
        out.append("  (no orders)")
    else:
        out += ["  " + line for line in orderset.shown_set(variant, state, asked.seat, held)]
    ready = orderset.readiness(variant, state, asked.seat, held)
    if ready.missing:
        out.append("Still lacking: " + "; ".join(ready.missing) + ".")
    if ready.flag in ("ready", "wait"):
        out.append(f"You said '{ready.flag}'.")
    out.append(f"{name} is in." if ready.is_in else f"{name} is not in yet.")
    return "\n".join(out)


def card_choice(asked: Asked) -> str:
    from adjudicator.cards import driver
    ctx: Any = asked.ctx                  # a card game's context (ingest_turns.TurnContext)
    path = driver.collected_dir(ctx.folder, ctx.index, ctx.info) / f"{asked.seat}.yaml"
    if not path.is_file():
        return f"Your choice for {ctx.phase}: none yet."
    return f"Your choice for {ctx.phase}, as the judge holds it:\n\n" + path.read_text(encoding="utf-8").rstrip()
