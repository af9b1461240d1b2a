"""Helpers for the Age of Ambition tests: a fresh state in a known seat
order and a deep merge for the data-driven cases. (A plain module, not
conftest, so test files can import it without a tests package.)"""

from __future__ import annotations

import copy
from typing import Any

from adjudicator.cards.age_of_ambition.engine import GAME


def merge(base: Any, patch: Any) -> Any:
    """Mappings merge key by key; anything else replaces."""
    if isinstance(base, dict) and isinstance(patch, dict):
        out = dict(base)
        for key, value in patch.items():
            out[key] = merge(base.get(key), value) if key in base else copy.deepcopy(value)
        return out
    return copy.deepcopy(patch)


def fresh_state(players: list[str], data: dict[str, Any], given: dict[str, Any] | None = None) -> dict[str, Any]:
    """A new game with the seat order fixed to `players` (setup picks the
    first player at random; the cases want alice first)."""
    state = GAME.setup(players, 1, data)
    state["order"] = list(players)
    state["current"] = players[0]
    return merge(state, given or {})
