"""The variant a Diplomacy game folder plays, with the game's own rule options.

    game.yaml     variant: standard            an installed variant, by name
                  options: {rules_edition: 2023}   the game's rule options
    variant.yaml  the game's own variant data, copied by `new --variant
                  path/to/my.yaml`; when present it is the variant, whatever
                  is installed

Every command that opens a Diplomacy game reads its variant here, so the
options are checked on every read: an unknown key or value is one line
naming game.yaml, the key and the allowed values."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from adjudicator.diplomacy.variant import VARIANTS_DIR, Variant
from adjudicator.errors import DataFileError
from adjudicator.rules import load_variant, variant_of_folder
from adjudicator.store.names import NAME_RE

FOLDER_VARIANT = "variant.yaml"    # a game's own copy of a custom variant file


def installed_variant(name: str, source: str) -> Variant:
    """An installed variant, by the name a state file or game.yaml gives. The
    name comes from a file a player may have sent, so it is never a path."""
    if not NAME_RE.fullmatch(name) or not (VARIANTS_DIR / f"{name}.yaml").is_file():
        known = sorted(p.stem for p in VARIANTS_DIR.glob("*.yaml"))
        raise DataFileError(f"variant: {name!r} is not an installed variant", file=source,
                            hint=f"known: {', '.join(known)}")
    return load_variant(name)


def game_variant(folder: Path, meta: dict[str, Any]) -> Variant:
    """The variant of the game in `folder` (game.yaml read as `meta`), with
    game.yaml's `options:` applied and checked."""
    source = str(folder / "game.yaml")
    own = folder / FOLDER_VARIANT
    name = str(meta["variant"])
    variant = variant_of_folder(own, name) if own.is_file() else installed_variant(name, source)
    options = meta.get("options") or {}
    return variant.with_rule_options(options, source, "options") if options else variant


def options_for(variant: Variant, options: dict[str, Any], source: str) -> dict[str, str]:
    """A new game's `--option` settings, checked against the rule options:
    as game.yaml will hold them."""
    checked = variant.with_rule_options(options, source, "options").rule_options
    return {k: checked[k] for k in options}
