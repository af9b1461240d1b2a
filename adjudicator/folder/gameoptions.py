"""What a game allows its players by mail, from game.yaml (the GM edits it by
hand, so each value is checked where it is read, and a wrong one is one line
naming the key):

    press: white          # white | grey | broadcast-only | none
    anonymous: false      # true: a gunboat game, no player's name or address reaches another player
    reveal_at_end: false  # true: the end-of-game report names who played each power
    absence: {max_days: 14, per_year: 2}    # or `absence: none`
    map_style: territories  # territories | centres: what the maps tint

`press`: white press names its sender's power; grey press goes out without
it; broadcast-only allows only `broadcast:` (named); none allows no press.
`map_style`: territories tints every land province a power holds (its
centres, and the other land it was the last to stand on); centres tints only
supply centres, the judge's look before territories came.
The judge's default is white press, no anonymity, absences of at most 14
days, two a year per power, and territories."""

from __future__ import annotations

from typing import Any

from adjudicator.errors import DataFileError

PRESS_MODES = ("white", "grey", "broadcast-only", "none")
PRESS_ALIASES = {"gray": "grey", "broadcast": "broadcast-only", "no": "none", "off": "none"}
DEFAULT_ABSENCE = {"max_days": 14, "per_year": 2}
MAX_ABSENCE_DAYS = 60                # the most a GM may allow for one absence


def press_mode(meta: dict[str, Any], source: str = "game.yaml") -> str:
    value = meta.get("press", "white")
    text = str(value).strip().lower() if isinstance(value, str) else None
    text = PRESS_ALIASES.get(text or "", text)
    if text not in PRESS_MODES:
        raise DataFileError(f"'press' must be one of {', '.join(PRESS_MODES)}, not {str(value)[:40]!r}", file=source)
    return text


def flag(meta: dict[str, Any], key: str, source: str = "game.yaml") -> bool:
    value = meta.get(key, False)
    if not isinstance(value, bool):
        raise DataFileError(f"'{key}' must be true or false", file=source)
    return value


def is_anonymous(meta: dict[str, Any], source: str = "game.yaml") -> bool:
    return flag(meta, "anonymous", source)


def reveals_at_end(meta: dict[str, Any], source: str = "game.yaml") -> bool:
    return flag(meta, "reveal_at_end", source)


def absence_limits(meta: dict[str, Any], source: str = "game.yaml") -> dict[str, int] | None:
    """{max_days, per_year}, or None where the game allows no absences."""
    value = meta.get("absence", DEFAULT_ABSENCE)
    if value is None or (isinstance(value, str) and value.strip().lower() in ("none", "off", "no")) \
            or value is False:
        return None
    if not isinstance(value, dict) or set(value) - set(DEFAULT_ABSENCE):
        raise DataFileError("'absence' must be none or a mapping of max_days and per_year", file=source,
                            hint="e.g. absence: {max_days: 14, per_year: 2}")
    limits = {**DEFAULT_ABSENCE, **value}
    days, count = limits["max_days"], limits["per_year"]
    if not isinstance(days, int) or not isinstance(count, int) or isinstance(days, bool) \
            or isinstance(count, bool) or not 1 <= days <= MAX_ABSENCE_DAYS or not 1 <= count <= 52:
        raise DataFileError(f"absence: max_days must be 1 to {MAX_ABSENCE_DAYS} and per_year 1 to 52",
                            file=source)
    return {"max_days": days, "per_year": count}


def map_style(meta: dict[str, Any], source: str = "game.yaml") -> str:
    """What the game's maps tint: 'territories' (the default) or 'centres'."""
    from adjudicator.output.render_territory import DEFAULT_MAP_STYLE, MAP_STYLES
    value = meta.get("map_style", DEFAULT_MAP_STYLE)
    text = value.strip().lower() if isinstance(value, str) else None
    if text not in MAP_STYLES:
        raise DataFileError(f"'map_style' must be one of {', '.join(MAP_STYLES)}, not {str(value)[:40]!r}",
                            file=source, hint="territories tints all the land a power holds; centres only its centres")
    return text
