"""A Diplomacy player's mailed orders taken into their order set
(folder/orderset.py), and the reply: what this mail changed, any line it
could not use, the whole set as the judge now holds it, what it still lacks,
and which powers are in."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from adjudicator.diplomacy.state import GameState
from adjudicator.diplomacy.variant import Variant
from adjudicator.folder import orderset
from adjudicator.folder.checking import check_lines
from adjudicator.folder.schedule import must_order


@dataclass
class Taken:
    stored: str                       # the set's new file
    target: Path
    errors: list[str]                 # this mail's lines that have problems
    reply: str


def stamp(sender: str, date: datetime | None) -> str:
    when = date.strftime("%Y-%m-%dT%H:%M:%SZ") if date else "no date"
    return f"# from {sender}, {when}"


def take_orders(folder: Path, variant: Variant, state: GameState, power: str, text: str,
                words: orderset.SetWords, sender: str, date: datetime | None) -> Taken:
    """Merge the mail's orders (`text`, the set words taken out) into the power's set."""
    target = orderset.set_path(folder, state.phase.slug, power)
    old = orderset.read_set(target)
    new = orderset.merge(variant, state, power, old, text, words, stamp(sender, date))
    echo, errors, _ = check_lines(variant, state, text, power)
    ready = orderset.readiness(variant, state, power, new)
    name = variant.power_name(power)
    out = [f"Orders received for {name}, {state.phase}."]
    if words.fresh:
        out.append("You said 'clear': this mail's orders are your whole set; the orders you sent before are gone.")
    elif old is not None:
        out.append("This mail's orders replace the ones you had for the same units; your other orders are "
                   "kept (a line 'clear' starts afresh).")
    if errors:
        out.append(f"{len(errors)} line(s) of this mail have problems. A line marked 'error' was not used "
                   "(that unit keeps the order it had, or holds); a 'void' order is kept, and the unit holds.")
        out += ["", *[line for line in echo if "\n    error (" in line or "\n    void (" in line]]
    out += ["", f"Your orders for {state.phase}, as the judge holds them now:"]
    out += ["  " + line for line in orderset.shown_set(variant, state, power, new)]
    if ready.missing:
        out += ["Still lacking: " + "; ".join(ready.missing) + "."]
    if ready.flag == "ready":
        out.append(f"You said 'ready': {name} is in as it stands (units without an order hold, unused builds "
                   "are waived). Send 'wait' to take that back.")
    elif ready.flag == "wait":
        out.append("You said 'wait': the judge will not process this phase before the deadline, even if every "
                   "power is in. Send 'ready' to take that back.")
    elif ready.is_in:
        out.append(f"Your orders are complete: {name} is in. The phase is processed once every power is in, "
                   "or at the deadline.")
    else:
        out.append(f"{name} is not in yet: the judge waits for these orders until the deadline (send 'ready' "
                   "to be counted in as you are).")
    out += ["", *powers_in(folder, variant, state, power, ready)]
    return Taken(new.text(), target, errors, "\n".join(out) + "\n")


def powers_in(folder: Path, variant: Variant, state: GameState, power: str,
              own: orderset.Readiness) -> list[str]:
    """Which powers are in now, this mail's set counted."""
    expected = must_order(variant, state)
    others = orderset.standing_of(folder, variant, state, [p for p in expected if p != power])
    ready = {**others, power: own} if power in expected else others
    ins = [variant.power_name(p) for p in expected if ready[p].is_in]
    outs = [variant.power_name(p) for p in expected if not ready[p].is_in]
    return [f"Powers in: {', '.join(ins) or 'none yet'}.", f"Not in yet: {', '.join(outs) or 'none'}."]
