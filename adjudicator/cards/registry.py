"""Turn-file games by name. Each entry is the module that defines `GAME`,
imported only when asked for, so one broken game never stops the others."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

from adjudicator.errors import AdjudicatorError

if TYPE_CHECKING:
    from adjudicator.cards.common import TurnGame

GAME_MODULES: dict[str, str] = {
    "seven-wonders": "adjudicator.cards.seven_wonders.engine",
    "age-of-ambition": "adjudicator.cards.age_of_ambition.engine",
    "age-of-artisans": "adjudicator.cards.age_of_artisans.engine",
    "ambition": "adjudicator.cards.ambition.engine",
}


def is_turn_file_game(name: str) -> bool:
    return name in GAME_MODULES


def find_game(name: str) -> TurnGame:
    if name not in GAME_MODULES:
        known = ", ".join(sorted(GAME_MODULES))
        raise AdjudicatorError(f"unknown turn-file game {name!r}", hint=f"known: {known}")
    module = importlib.import_module(GAME_MODULES[name])
    game: TurnGame = module.GAME
    return game
