"""Whole territories: the map style that tints every land province a power
holds (a centre by its owner, other land by the last power whose unit ended
a phase there), the control the game state keeps for it, and `centres`, the
style that tints supply centres only. The rules themselves are the data
cases in tests/cases/standard/control.txt."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from click.testing import CliRunner

from adjudicator.diplomacy.game import adjudicate_text
from adjudicator.diplomacy.model import Unit
from adjudicator.diplomacy.statefile import (
    initial_state,
    state_from_data,
    state_to_data,
)
from adjudicator.errors import DataFileError
from adjudicator.folder import gamefolder
from adjudicator.output.colours import power_colours
from adjudicator.output.render import render_svg
from adjudicator.output.render_territory import LAND_FILL, TINT, mix
from adjudicator.rules import load_variant
from adjudicator.store import storage


def fills(svg: str) -> dict[str, str]:
    """Each province's fill: prov-<id> -> colour."""
    root = ET.fromstring(svg)
    return {e.get("id", "")[5:]: e.get("fill", "") for e in root.iter() if (e.get("id") or "").startswith("prov-")}


def tint(variant_name: str, power: str) -> str:
    return mix(power_colours(load_variant(variant_name))[power], TINT)


def test_the_opening_tints_each_home_country_whole() -> None:
    variant = load_variant("standard")
    state = initial_state(variant)
    assert state.control["bur"] == "france" and state.control["fin"] == "russia"
    assert "par" not in state.control and "bel" not in state.control   # centres are owned, not controlled
    shown = fills(render_svg(variant, state))
    assert shown["bur"] == shown["par"] == tint("standard", "france")
    assert shown["fin"] == tint("standard", "russia")
    assert shown["naf"] == shown["bel"] == LAND_FILL                     # nobody's yet
    old = fills(render_svg(variant, state, map_style="centres"))
    assert old["par"] == tint("standard", "france") and old["bur"] == LAND_FILL


def test_a_province_left_keeps_its_colour_and_another_power_takes_it() -> None:
    variant = load_variant("standard")
    spring = adjudicate_text(variant, initial_state(variant), "germany:\nA mun - bur\nitaly:\nA ven - tyr\n")
    after = spring.next_state
    assert after.control["bur"] == "germany" and after.control["tyr"] == "italy"    # moved in: taken
    fall = adjudicate_text(variant, after, "germany:\nA bur - pic\nitaly:\nA tyr - mun\n")
    now = fall.next_state
    assert "bur" not in now.units and now.control["bur"] == "germany"              # left: still German
    assert now.control["pic"] == "germany" and now.control["tyr"] == "italy"
    shown = fills(render_svg(variant, now, fall))
    assert shown["bur"] == shown["pic"] == tint("standard", "germany")
    assert shown["tyr"] == tint("standard", "italy")
    assert now.centres["mun"] == "italy" and "mun" not in now.control              # a centre: owned, after the Fall
    assert shown["mun"] == tint("standard", "italy")
    assert shown["ven"] == tint("standard", "italy")           # a centre left empty stays its owner's
    centres_only = fills(render_svg(variant, now, fall, map_style="centres"))
    assert centres_only["bur"] == centres_only["tyr"] == LAND_FILL and centres_only["mun"] == shown["mun"]


def test_control_round_trips_and_an_old_state_reads_and_writes_as_before() -> None:
    variant = load_variant("standard")
    state = initial_state(variant)
    state.control["naf"] = "italy"
    data = state_to_data(state, variant)
    assert data["control"]["france"] == ["bur", "gas", "pic"] and data["control"]["italy"] == ["apu", "naf", "pie", "tus"]
    text = storage.dump_yaml(data)
    again = state_from_data(storage.yaml.safe_load(text), variant, "s.yaml")
    assert again.control == state.control
    assert storage.dump_yaml(state_to_data(again, variant)) == text
    # A state written before control was kept: no key, read as none, written back byte for byte.
    old = dict(data)
    del old["control"]
    old_text = storage.dump_yaml(old)
    read = state_from_data(storage.yaml.safe_load(old_text), variant, "old.yaml")
    assert read.control == {}
    assert storage.dump_yaml(state_to_data(read, variant)) == old_text
    # ... and its map tints the land its units stand on.
    army = read.units.pop("par")
    read.units["bur"] = Unit("france", army.type, "bur")
    assert fills(render_svg(variant, read))["bur"] == tint("standard", "france")


@pytest.mark.parametrize("bad", [{"france": ["par"]}, {"france": ["eng"]}, {"france": ["atlantis"]},
                                 {"france": "bur"}])
def test_a_bad_control_entry_is_one_clear_error(bad: object) -> None:
    variant = load_variant("standard")
    data = state_to_data(initial_state(variant), variant)
    data["control"] = bad
    with pytest.raises(DataFileError) as caught:
        state_from_data(data, variant, "s.yaml")
    assert "control" in str(caught.value)


def test_game_yaml_map_style(tmp_path: Path) -> None:
    from adjudicator.cli.maps import map_command
    folder = gamefolder.new_game(tmp_path / "g", "standard")
    orders = tmp_path / "o.txt"
    orders.write_text("france:\nA par - pic\n", encoding="utf-8")
    gamefolder.adjudicate(folder, orders, nmr=True)
    written = fills((folder / "maps" / "1901-spring-movement.svg").read_text(encoding="utf-8"))
    assert written["pic"] == written["bur"] == tint("standard", "france")      # the default: territories
    result = CliRunner().invoke(map_command, [str(folder), "--map-style", "centres"])
    assert result.exit_code == 0, result.output
    assert fills(result.output)["bur"] == LAND_FILL
    meta = storage.read_yaml(folder / "game.yaml")
    meta["map_style"] = "centres"
    storage.atomic_write(folder / "game.yaml", storage.dump_yaml(meta))
    result = CliRunner().invoke(map_command, [str(folder)])
    assert result.exit_code == 0 and fills(result.output)["pic"] == LAND_FILL
    assert fills(CliRunner().invoke(map_command, [str(folder), "--map-style", "territories"]).output)["pic"] \
        == tint("standard", "france")
    meta["map_style"] = "whole"
    storage.atomic_write(folder / "game.yaml", storage.dump_yaml(meta))
    result = CliRunner().invoke(map_command, [str(folder)])
    assert result.exit_code == 2
    assert "map_style" in result.output and "territories, centres" in result.output
    assert "Traceback" not in result.output
    # adjudicate says the same and writes nothing.
    before = sorted(p for p in folder.rglob("*") if p.is_file())
    orders.write_text("france:\nA pic - bel\n", encoding="utf-8")
    with pytest.raises(DataFileError, match="map_style"):
        gamefolder.adjudicate(folder, orders, nmr=True)
    assert sorted(p for p in folder.rglob("*") if p.is_file()) == before


def frontier_count(svg: str) -> int:
    root = ET.fromstring(svg)
    return sum(1 for e in root.iter() if e.get("class") == "frontier")


def test_a_frontier_line_marks_where_a_powers_land_ends() -> None:
    """Two powers' tints can be close (for colour-blind eyes most), so a
    stronger line runs where one power's land meets another's or nobody's."""
    from adjudicator.output.render_territory import geometry_for, land_borders
    variant = load_variant("standard")
    state = initial_state(variant)
    geo = geometry_for(variant.map)
    assert geo is not None
    borders = land_borders(variant, geo)
    assert ("bur", "mun") in borders and ("bur", "par") in borders and ("bur", "eng") not in borders
    root = ET.fromstring(render_svg(variant, state))
    drawn = {e.get("d") for e in root.iter() if e.get("class") == "frontier"}
    assert " ".join(f"M{run}" for run in borders[("bur", "mun")]) in drawn        # France / Germany
    assert " ".join(f"M{run}" for run in borders[("bur", "par")]) not in drawn    # both French
    assert " ".join(f"M{run}" for run in borders[("bel", "bur")]) in drawn        # French / nobody's
    every = frontier_count(render_svg(variant, state))
    assert 0 < every < len(borders)
    assert frontier_count(render_svg(variant, state, map_style="centres")) == 0
