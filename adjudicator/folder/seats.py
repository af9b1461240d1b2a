"""What the GM sees of the seats of a game: who plays each, whether their
orders are in for this phase, and how many phases in a row they missed.
Works for both kinds of game, through the game folder's `standing`."""

from __future__ import annotations

from pathlib import Path

from adjudicator.folder import players
from adjudicator.folder.folders import open_game


def current_phase_name(folder: Path) -> str:
    return open_game(folder).standing().phase


def seat_rows(folder: Path) -> list[str]:
    stand = open_game(folder).standing()
    rows = []
    for entry in players.roster(folder):
        seat = entry["power"]
        who = f"{entry.get('name') or '-'} <{entry.get('email')}>" if entry.get("email") else "no player"
        if seat in stand.waiting:
            orders = "incomplete" if seat in stand.received else "waiting"
        else:
            orders = "in" if seat in stand.received else "nothing to do"
        rows.append(f"{stand.labels.get(seat, seat)}: {who}; orders {orders}; "
                    f"missed in a row: {stand.missed.get(seat, 0)}")
    return rows
