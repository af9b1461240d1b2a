"""What the GM sees of the seats of a game: who plays each, whether their
orders are in for this phase, and how many phases in a row they missed.
Works for both kinds of game."""

from __future__ import annotations

from pathlib import Path

from adjudicator import players, storage
from adjudicator.gamemeta import check_meta


def current_phase_name(folder: Path) -> str:
    meta = check_meta(storage.read_yaml(folder / "game.yaml"), str(folder / "game.yaml"))
    if meta.get("kind") == "turn-file":
        from adjudicator.cards import driver
        game, state, index, _ = driver.current(folder)
        info = game.phase(state)
        return f"{index:04d}-{info.name}" if info else "the end"
    from adjudicator.gamefolder import load_current
    return load_current(folder)[2].phase.slug


def seat_rows(folder: Path) -> list[str]:
    meta = check_meta(storage.read_yaml(folder / "game.yaml"), str(folder / "game.yaml"))
    entries = players.roster(folder)
    if meta.get("kind") == "turn-file":
        from adjudicator.cards import driver
        game, state, index, _ = driver.current(folder)
        info = game.phase(state)
        have = {p.stem for p in driver.collected_dir(folder, index, info).glob("*.yaml")} if info else set()
        waiting = set(info.waiting_for) if info else set()
        label = {e["power"]: e["power"] for e in entries}
        missed: dict[str, int] = {}
    else:
        from adjudicator.gamefolder import collected_files, load_current
        from adjudicator.schedule import must_order
        _, variant, dstate, _ = load_current(folder)
        have = {p.stem for p in collected_files(folder, dstate.phase)}
        waiting = set(must_order(variant, dstate))
        label = {e["power"]: variant.power_name(e["power"]) for e in entries}
        missed = dstate.missed
    rows = []
    for entry in entries:
        seat = entry["power"]
        who = f"{entry.get('name') or '-'} <{entry.get('email')}>" if entry.get("email") else "no player"
        orders = "in" if seat in have else ("waiting" if seat in waiting else "nothing to do")
        row = f"{label[seat]}: {who}; orders {orders}; missed in a row: {missed.get(seat, 0)}"
        rows.append(row)
    return rows
