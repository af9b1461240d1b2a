"""Variants found by name, each with the rule set its `rules:` names
(rules/__init__.py): the package's variants, a GM's own file by path, a game
folder's copy (read each time), and the errors for an unknown variant or
unknown rules, each naming the file and what is known."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from adjudicator.diplomacy.variant import VARIANTS_DIR
from adjudicator.errors import DataFileError
from adjudicator.rules import RULE_MODULES, load_variant, rule_set, variant_of_folder
from adjudicator.rules.ambition_empire import RULES
from adjudicator.rules.standard import STANDARD
from adjudicator.store.storage import KEEP_MIN_CHARS


def test_each_variant_has_the_rule_set_its_file_names() -> None:
    assert load_variant("standard").rules is STANDARD
    assert load_variant("ancient-mediterranean").rules is STANDARD
    assert load_variant("ambition-empire").rules is RULES
    assert load_variant("standard") is load_variant("standard")        # read once per process
    assert rule_set("ambition-empire", "v.yaml") is RULES


def test_unknown_rules_name_the_file_and_the_known_ones() -> None:
    with pytest.raises(DataFileError) as caught:
        rule_set("chess", "mine.yaml")
    error = caught.value
    assert (error.message, error.file, error.hint) == ("unknown rules 'chess'", "mine.yaml",
                                                      "known: standard, ambition-empire")
    assert list(RULE_MODULES) == ["standard", "ambition-empire"]


def test_an_unknown_variant_names_the_file_it_looked_for_and_the_known_ones() -> None:
    with pytest.raises(DataFileError) as caught:
        load_variant("chess")
    error = caught.value
    assert (error.message, error.file) == ("no variant 'chess'", str(VARIANTS_DIR / "chess.yaml"))
    assert error.hint == ("known: age-of-ambition, age-of-artisans, ambition, ambition-empire, "
                          "ancient-mediterranean, seven-wonders, standard")


def kept(cache: Path, text: str) -> bool:
    """Whether the user cache holds the parsed data of this text."""
    digest = hashlib.sha256(text.encode("utf-8")).hexdigest()
    return any(cache.glob(f"yaml-*-{digest}.marshal"))


def test_a_gms_own_file_by_path_and_a_folders_copy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    cache = tmp_path / "xdg" / "adjudicator"
    # padded to the size of file that is kept
    text = (VARIANTS_DIR / "standard.yaml").read_text(encoding="utf-8") + "#" + "x" * KEEP_MIN_CHARS + "\n"
    own = tmp_path / "house.yaml"
    own.write_text(text.replace("name: Standard", "name: House"), encoding="utf-8")
    variant = load_variant(str(own))
    assert (variant.id, variant.name, variant.rules) == ("house", "House", STANDARD)
    assert kept(cache, own.read_text(encoding="utf-8"))                    # the GM's own file is kept
    with pytest.raises(DataFileError) as caught:
        load_variant(str(tmp_path / "missing.yaml"))
    assert caught.value.message == f"no variant {str(tmp_path / 'missing.yaml')!r}"
    copy = tmp_path / "variant.yaml"
    copy.write_text(text.replace("name: Standard", "name: First"), encoding="utf-8")
    assert variant_of_folder(copy, "standard").name == "First"
    copy.write_text(text.replace("name: Standard", "name: Second"), encoding="utf-8")
    assert variant_of_folder(copy, "standard").name == "Second"            # read each time
    assert not kept(cache, copy.read_text(encoding="utf-8"))               # and never kept
    copy.write_text(text.replace("rules: {name: standard", "rules: {name: chess"), encoding="utf-8")
    with pytest.raises(DataFileError, match="unknown rules 'chess'") as unknown:
        variant_of_folder(copy, "standard")
    assert unknown.value.file == str(copy)
