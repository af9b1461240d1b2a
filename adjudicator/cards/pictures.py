"""The card games' pictures: each game's `picture` module draws its table
from the game's view, `draw(view, viewer) -> SVG text`. The public picture
is drawn from the public view; a player's own picture from their private
view laid over the public one (7 Wonders' private view holds only the
player's secrets; the others' hold the public view as well), so a secret can
only be in its owner's picture.

The modules are imported when a picture is asked for: a game whose module
is not written yet simply has no picture."""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Any

from adjudicator.cards.common import State, TurnGame
from adjudicator.cards.registry import find_game

PICTURE_MODULES = {
    "seven-wonders": "adjudicator.cards.seven_wonders.picture",
    "age-of-ambition": "adjudicator.cards.age_of_ambition.picture",
    "age-of-artisans": "adjudicator.cards.age_of_artisans.picture",
    "ambition": "adjudicator.cards.ambition.picture",
}


def picture_module(game_name: str) -> ModuleType | None:
    """The game's picture module, or None for a game that has none (yet)."""
    name = PICTURE_MODULES.get(game_name)
    if name is None:
        return None
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as exc:
        if exc.name != name:      # the module is there but something it imports is missing
            raise
        return None


def picture_view(game: TurnGame, state: State, data: dict[str, Any], viewer: str | None) -> dict[str, Any]:
    """What the picture may show: the public view, or `viewer`'s private view over it."""
    public = game.public_view(state, data)
    return public if viewer is None else own_view(public, game.private_view(state, viewer, data))


def own_view(public: dict[str, Any], private: dict[str, Any]) -> dict[str, Any]:
    """A player's own picture's view: their private view laid over the public one."""
    return {**public, **private}


def draw_view(game_name: str, view: dict[str, Any], viewer: str | None = None) -> str | None:
    """The picture of a view already made (see picture_view), or None when
    the game has no picture module."""
    module = picture_module(game_name)
    if module is None:
        return None
    svg = module.draw(view, viewer)
    if not isinstance(svg, str):
        raise TypeError(f"{module.__name__}.draw returned {type(svg).__name__}, not SVG text")
    return svg


def picture(game_name: str, state: State, data: dict[str, Any], viewer: str | None = None) -> str | None:
    """The table of the game `game_name` (its registry name) as SVG text:
    `viewer`'s own picture, or the public one with None; None when the game
    has no picture module."""
    if picture_module(game_name) is None:
        return None
    return draw_view(game_name, picture_view(find_game(game_name), state, data, viewer), viewer)
