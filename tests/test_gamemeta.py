"""game.yaml's schema (store/gamemeta.py), checked on every read: the cases
in tests/cases/game-yaml/schema.yaml, each read or refused with its message
and line; and the deadline a new phase writes into it."""

from __future__ import annotations

import datetime
from pathlib import Path
from typing import Any

import pytest
import yaml

from adjudicator.errors import DataFileError
from adjudicator.store import gamemeta, storage

CASES = yaml.safe_load((Path(__file__).parent / "cases" / "game-yaml" / "schema.yaml").read_text(encoding="utf-8"))


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_game_yaml(case: dict[str, Any], tmp_path: Path) -> None:
    path = tmp_path / "game.yaml"
    path.write_text(case["text"], encoding="utf-8")
    meta = storage.read_yaml(path)
    if case.get("read"):
        assert gamemeta.check_meta(meta, str(path)) is meta
        return
    with pytest.raises(DataFileError) as caught:
        gamemeta.check_meta(meta, str(path))
    assert (caught.value.message, caught.value.line, caught.value.file) == (case["refused"], case["line"],
                                                                            str(path))


def test_the_line_of_a_key_is_that_of_the_top_level_key(tmp_path: Path) -> None:
    path = tmp_path / "game.yaml"
    path.write_text("variant: standard\nplayers:\n- {name: x}\n  name: y\nname: g\n", encoding="utf-8")
    assert gamemeta.key_line(str(path), "name") == 5
    assert gamemeta.key_line(str(path), "deadline") is None
    assert gamemeta.key_line(str(tmp_path / "none.yaml"), "name") is None
    path.write_bytes(b"name: caf\xe9\n")
    assert gamemeta.key_line(str(path), "name") is None


def test_a_phase_deadline_and_when_it_opened() -> None:
    meta = {"variant": "standard", "deadline": "old", "opened": "old"}
    due = datetime.datetime(2026, 11, 29, 18, 0, 30, tzinfo=datetime.timezone.utc)
    opened = datetime.datetime(2026, 11, 27, 18, 0, tzinfo=datetime.timezone.utc)
    assert gamemeta.with_deadline(meta, due, opened) == {"variant": "standard", "deadline": "2026-11-29T18:00+00:00",
                                                         "opened": "2026-11-27T18:00+00:00"}
    assert gamemeta.with_deadline(meta, due, None) == {"variant": "standard", "deadline": "2026-11-29T18:00+00:00"}
    assert gamemeta.with_deadline(meta, None, opened) == {"variant": "standard", "deadline": None}
    assert meta == {"variant": "standard", "deadline": "old", "opened": "old"}      # a copy is changed
