"""Where the judge's own data lies (store/packagedata.py): the one folder on
disk of an installed package; a package in two places, a module that is no
package, or one imported from a zip archive is refused with the fix."""

from __future__ import annotations

import sys
import types
from pathlib import Path

import pytest

from adjudicator.errors import AdjudicatorError
from adjudicator.store.packagedata import package_folder


def fake_package(monkeypatch: pytest.MonkeyPatch, name: str, path: list[str] | None) -> None:
    module = types.ModuleType(name)
    if path is not None:
        module.__path__ = path
    monkeypatch.setitem(sys.modules, name, module)


def test_the_one_folder_of_a_package_on_disk(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    fake_package(monkeypatch, "judge_data_one", [str(tmp_path)])
    assert package_folder("judge_data_one") == tmp_path
    assert package_folder("adjudicator.maps").is_dir()


@pytest.mark.parametrize("where", ["two folders", "no folder", "a module", "a zip archive"])
def test_a_package_not_in_one_folder_on_disk_is_refused(where: str, monkeypatch: pytest.MonkeyPatch,
                                                        tmp_path: Path) -> None:
    name = "judge_data_" + where.replace(" ", "_")
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    path = {"two folders": [str(tmp_path / "a"), str(tmp_path / "b")], "no folder": [], "a module": None,
            "a zip archive": [str(tmp_path / "judge.zip" / "data")]}[where]
    fake_package(monkeypatch, name, path)
    with pytest.raises(AdjudicatorError) as caught:
        package_folder(name)
    assert caught.value.message == f"{name} is not installed as a folder on disk ({path or []})"
    assert caught.value.hint == "install the judge with pip or pipx, not from a zip archive"
