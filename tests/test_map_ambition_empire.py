"""Ambition & Empire VI: the raw map and variant YAML against the v6.01 rules.

Checks the counts, the symmetry and integrity of the adjacency lists, the
split coasts, every adjacency fact the rules' examples rely on (as listed in
reference/ambition-empire-v6-map-notes.md), and the powers' starting set-up.
Reads the files with yaml.safe_load only; no loader is involved.
"""

from __future__ import annotations

from collections import deque
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent
MAP = yaml.safe_load((ROOT / "maps" / "ambition-empire.yaml").read_text(encoding="utf-8"))
VARIANT = yaml.safe_load((ROOT / "variants" / "ambition-empire.yaml").read_text(encoding="utf-8"))
PROVINCES: dict = MAP["provinces"]

# The 44 supply centres the rulebook marks with an asterisk.
SEED_CENTRES = {
    "abo", "alg", "baw", "brc", "bav", "ber", "brl", "bre", "bud", "chr", "con",
    "cop", "cou", "cri", "dre", "edi", "han", "hew", "kev", "kon", "lvp", "lon",
    "mad", "mar", "mek", "mil", "mor", "mos", "nas", "pap", "par", "por", "stp",
    "sav", "smy", "sne", "sto", "swi", "tun", "tus", "upr", "ven", "vie", "war",
}
SEED_SEAS = {
    "adr", "aeg", "bal", "bar", "bla", "eas", "eng", "gib", "gob", "gol", "hel",
    "ion", "iri", "mao", "nao", "nth", "nwg", "ska", "tys", "wes",
}


def fleet_locations() -> dict[str, list[str]]:
    """Every location a fleet may stand on, with its fleet neighbours."""
    out: dict[str, list[str]] = {}
    for pid, p in PROVINCES.items():
        if "coasts" in p:
            for cid, c in p["coasts"].items():
                out[f"{pid}/{cid}"] = c["fleet"]
        elif p["terrain"] != "land":
            out[pid] = p.get("fleet", [])
    return out


FLEET = fleet_locations()


def army_adj(a: str, b: str) -> bool:
    return b in PROVINCES[a]["army"]


def fleet_adj(a: str, b: str) -> bool:
    return b in FLEET.get(a, [])


# --- counts and shape -------------------------------------------------------

def test_name():
    assert MAP["name"] == "Ambition & Empire VI"
    assert VARIANT["name"] == "Ambition & Empire VI"
    assert VARIANT["map"] == "ambition-empire"


def test_counts():
    assert len(PROVINCES) == 97
    seas = {pid for pid, p in PROVINCES.items() if p["terrain"] == "sea"}
    assert len(seas) == 20
    assert seas == SEED_SEAS
    assert sum(1 for p in PROVINCES.values() if p["terrain"] in ("land", "coast")) == 77
    centres = {pid for pid, p in PROVINCES.items() if p["supply_centre"] is True}
    assert len(centres) == 44
    assert centres == SEED_CENTRES


def test_terrain_values_and_ids():
    for pid, p in PROVINCES.items():
        assert pid == pid.lower() and pid.isalpha(), pid
        assert p["terrain"] in ("land", "coast", "sea"), pid
        assert isinstance(p["name"], str) and p["name"], pid
        assert isinstance(p["supply_centre"], bool), pid


def test_aliases_unique_and_not_ids():
    seen: dict[str, str] = {}
    for pid, p in PROVINCES.items():
        for alias in p.get("aliases", []):
            assert alias == alias.lower(), (pid, alias)
            assert alias not in PROVINCES, (pid, alias)
            assert alias not in seen, (pid, alias, seen.get(alias))
            seen[alias] = pid


def test_v5_names_are_aliases():
    renamed = {"adl": "and", "ank": "smy", "ane": "sne", "mec": "mek", "bot": "gob",
               "lyo": "gol", "hls": "hst", "kiv": "kev", "tws": "nas"}
    for old, new in renamed.items():
        assert old in PROVINCES[new]["aliases"], (old, new)
    assert "ankara" in PROVINCES["smy"]["aliases"]
    assert "two sicilies" in PROVINCES["nas"]["aliases"]
    assert "austrian netherlands" in PROVINCES["sne"]["aliases"]


# --- integrity and symmetry -------------------------------------------------

def test_army_lists_reference_land_and_are_symmetric():
    for pid, p in PROVINCES.items():
        if p["terrain"] == "sea":
            assert p["army"] == [], pid
            continue
        assert len(set(p["army"])) == len(p["army"]), pid
        for n in p["army"]:
            assert n in PROVINCES, (pid, n)
            assert n != pid
            assert PROVINCES[n]["terrain"] != "sea", (pid, n)
            assert pid in PROVINCES[n]["army"], f"army {pid}->{n} not symmetric"


def test_fleet_lists_reference_fleet_locations_and_are_symmetric():
    for loc, ns in FLEET.items():
        assert len(set(ns)) == len(ns), loc
        for n in ns:
            assert n in FLEET, (loc, n)
            assert n.split("/")[0] != loc.split("/")[0], (loc, n)
            assert loc in FLEET[n], f"fleet {loc}->{n} not symmetric"


def test_land_provinces_have_no_fleet_and_split_provinces_no_plain_fleet():
    for pid, p in PROVINCES.items():
        if p["terrain"] == "land":
            assert not p.get("fleet"), pid
            assert "coasts" not in p, pid
        if "coasts" in p:
            assert "fleet" not in p, pid
            assert p["terrain"] == "coast", pid


def test_every_coast_reaches_a_sea():
    for loc, ns in FLEET.items():
        if PROVINCES[loc.split("/")[0]]["terrain"] == "coast":
            assert any(PROVINCES[n.split("/")[0]]["terrain"] == "sea" for n in ns), loc


def test_graph_connected():
    nodes = set(PROVINCES)
    edges = {pid: set(p["army"]) for pid, p in PROVINCES.items()}
    for loc, ns in FLEET.items():
        edges[loc.split("/")[0]] |= {n.split("/")[0] for n in ns}
    seen, todo = {"par"}, deque(["par"])
    while todo:
        for n in edges[todo.popleft()]:
            if n not in seen:
                seen.add(n)
                todo.append(n)
    assert seen == nodes


def army_component(start: str) -> set[str]:
    seen, todo = {start}, deque([start])
    while todo:
        for n in PROVINCES[todo.popleft()]["army"]:
            if n not in seen:
                seen.add(n)
                todo.append(n)
    return seen


def test_army_land_masses():
    # By land alone (the crossings count): the mainland, Great Britain with
    # Ireland, and the islands Crete, Iceland, Sardinia.
    britain = {"lon", "edi", "lvp", "wal", "yor", "ire"}
    islands = {"cre", "ice", "sar"}
    land = {pid for pid, p in PROVINCES.items() if p["terrain"] != "sea"}
    assert army_component("lon") == britain
    assert army_component("par") == land - britain - islands
    for pid in islands:
        assert PROVINCES[pid]["army"] == []
        assert PROVINCES[pid]["terrain"] == "coast"


# --- split coasts -----------------------------------------------------------

def test_split_coasts():
    split = {pid: set(p["coasts"]) for pid, p in PROVINCES.items() if "coasts" in p}
    assert split["hst"] == {"ec", "wc"}
    assert split["smy"] == {"nc", "sc"}
    # Kept from v5; the v6.01 rules are silent on the Papal States' coasts.
    assert split["pap"] == {"ec", "wc"}
    assert set(split) == {"hst", "smy", "pap"}


def test_smyrna_coasts_as_the_rules_examples_state():
    # Example 17: the south coast reaches Constantinople, Aegean, Eastern Med, Syria.
    assert set(FLEET["smy/sc"]) == {"con", "aeg", "eas", "syr"}
    # North coast borders the Black Sea; Black Sea and Armenia are off limits
    # to the south coast (examples 16, 17).
    assert {"bla", "arm"} <= set(FLEET["smy/nc"])
    assert not fleet_adj("smy/sc", "bla") and not fleet_adj("smy/sc", "arm")
    assert not fleet_adj("bla", "smy/sc")
    # Example 16: the unified coastline reaches all six.
    assert set(FLEET["smy/nc"]) | set(FLEET["smy/sc"]) == {"arm", "bla", "con", "aeg", "eas", "syr"}


def test_holstein_has_no_canal():
    assert fleet_adj("hst/ec", "bal") and not fleet_adj("hst/wc", "bal")
    assert fleet_adj("hst/wc", "hel") and not fleet_adj("hst/ec", "hel")


def test_gibraltar_is_sea_and_andalusia_single_coast():
    assert PROVINCES["gib"]["terrain"] == "sea"
    assert "coasts" not in PROVINCES["and"]
    assert {"gib", "mao", "wes"} <= set(FLEET["and"])


# --- adjacency facts the rules rely on --------------------------------------

@pytest.mark.parametrize("a,b", [
    ("swi", "sav"), ("swi", "ven"),          # examples 1-4
    ("mar", "sav"), ("mil", "ven"),          # the attacks of examples 1-4
    ("mad", "and"),                          # example 13
    ("and", "mor"), ("edi", "ire"),          # crossings
    ("cou", "kon"),                          # Courland borders Koenigsberg
])
def test_army_adjacent(a, b):
    assert army_adj(a, b) and army_adj(b, a)


@pytest.mark.parametrize("a,b", [
    ("upr", "eng"), ("bre", "eng"), ("bre", "mao"), ("lon", "eng"),   # examples 6-8
    ("brc", "wes"), ("gib", "mao"), ("wes", "mor"), ("alg", "mor"),   # examples 13-15
    ("and", "gib"), ("gib", "mor"),                                    # example 15 convoy
    ("and", "mor"), ("edi", "ire"),                                    # crossings
    ("bla", "smy/nc"), ("smy/sc", "syr"),                              # examples 16-17
    ("cou", "kon"),
])
def test_fleet_adjacent(a, b):
    assert fleet_adj(a, b) and fleet_adj(b, a)


@pytest.mark.parametrize("a,b", [
    ("hew", "bav"),     # example 5: A Hesse-Westphalia to Bavaria is invalid
    ("stp", "nov"),     # Lake Ladoga
    ("kar", "mos"),     # Lake Ladoga
])
def test_not_adjacent(a, b):
    assert not army_adj(a, b) and not army_adj(b, a)
    assert not fleet_adj(a, b) and not fleet_adj(b, a)


def test_lithuania_inland():
    assert PROVINCES["lit"]["terrain"] == "land"
    assert "lit" not in FLEET["bal"]


def test_playable_islands():
    for pid in ("cre", "ice", "ire", "sar"):
        assert PROVINCES[pid]["terrain"] == "coast"
        assert FLEET[pid]
    assert PROVINCES["sar"]["supply_centre"] is False
    assert PROVINCES["cre"]["supply_centre"] is False


def test_posen_and_galicia_gone_new_polish_spaces_present():
    for gone in ("pos", "gal", "ank", "tws", "ane"):
        assert gone not in PROVINCES
    for new in ("gpo", "lpo", "pod", "war", "lit", "cre", "smy", "sne", "nas"):
        assert new in PROVINCES


# --- straits and reconstructed edges ----------------------------------------

def test_straits():
    straits = {tuple(sorted(s["between"])): s["controlled_from"] for s in MAP["straits"]}
    assert straits == {("edi", "ire"): "iri", ("and", "mor"): "gib"}
    for (a, b), sea in straits.items():
        assert army_adj(a, b) and fleet_adj(a, b)
        assert PROVINCES[sea]["terrain"] == "sea"
        assert fleet_adj(a, sea) and fleet_adj(b, sea)


def test_reconstructed_edges_exist_and_cover_new_spaces():
    listed = set()
    for a, b in MAP["reconstructed_edges"]:
        by_army = a in PROVINCES and b in PROVINCES and army_adj(a, b)
        assert by_army or fleet_adj(a, b), (a, b)
        listed.add(frozenset((a, b)))
    assert len(listed) == len(MAP["reconstructed_edges"])
    new = {"gpo", "lpo", "pod", "cre"}
    for pid in new:
        for n in PROVINCES[pid]["army"]:
            assert frozenset((pid, n)) in listed, (pid, n)
        for n in FLEET.get(pid, []):
            assert frozenset((pid, n)) in listed, (pid, n)


# --- the variant ------------------------------------------------------------

POWERS: dict = VARIANT["powers"]
MINORS: dict = VARIANT["minor_powers"]

SEED_POWERS = {
    # code: (name, religion, starting centres, units, colour)
    "BH": ("Great Britain & Hanover", "protestant", {"lon", "edi", "lvp", "han"},
           {"F lon", "F edi", "A han", "F gib"}, "#00247d"),
    "DN": ("Denmark-Norway", "protestant", {"cop", "chr"}, {"F cop", "F chr"}, "#a75a6a"),
    "FR": ("France", "catholic", {"par", "mar", "bre"}, {"A par", "A mar", "F bre"}, "#1b1bff"),
    "HA": ("Habsburg Empire (Austria)", "catholic", {"vie", "bud", "mil", "sne"},
           {"A vie", "A bud", "A mil", "A sne"}, "#edbc29"),
    "OT": ("Ottoman Empire (Turkey)", "islamic", {"con", "smy"}, {"A con", "F smy"}, "#e30a17"),
    "PR": ("Prussia", "protestant", {"ber", "brl", "kon"}, {"A ber", "A brl", "A kon"}, "#001f34"),
    "PS": ("Poland-Lithuania & Saxony", "catholic", {"war", "dre"}, {"A war", "A dre"}, "#f52887"),
    "RU": ("Russia", "orthodox", {"mos", "kev", "stp"}, {"A mos", "A kev", "F stp"}, "#679267"),
    "SP": ("Spain", "catholic", {"mad", "brc"}, {"A mad", "F brc"}, "#7e142a"),
    "SW": ("Sweden", "protestant", {"sto", "abo"}, {"F sto", "A abo"}, "#006aa7"),
}

SEED_MINORS = {
    # id: (religion, unit type)
    "alg": ("islamic", "F"), "baw": ("protestant", "A"), "bav": ("catholic", "A"),
    "cou": ("protestant", "F"), "hew": ("protestant", "A"), "cri": ("islamic", "A"),
    "mek": ("protestant", "A"), "mor": ("islamic", "F"), "pap": ("catholic", "A"),
    "por": ("catholic", "F"), "sav": ("catholic", "A"), "swi": ("protestant", "A"),
    "tun": ("islamic", "F"), "tus": ("catholic", "A"), "nas": ("catholic", "F"),
    "upr": ("protestant", "F"), "ven": ("catholic", "F"),
}


def parse_unit(u: str) -> tuple[str, str]:
    kind, loc = u.split()
    assert kind in ("A", "F"), u
    return kind, loc


def unit_location_valid(kind: str, loc: str) -> bool:
    prov = loc.split("/")[0]
    if prov not in PROVINCES:
        return False
    if kind == "A":
        return "/" not in loc and PROVINCES[prov]["terrain"] != "sea"
    return loc in FLEET


def strip_coast(u: str) -> str:
    kind, loc = parse_unit(u)
    return f"{kind} {loc.split('/')[0]}"


def test_start_and_victory():
    assert VARIANT["start"] == {"year": 1763, "season": "spring"}
    assert VARIANT["victory"]["centres"] == 15


def test_ten_powers_with_seed_facts():
    assert len(POWERS) == 10
    by_code = {p["code"]: p for p in POWERS.values()}
    assert set(by_code) == set(SEED_POWERS)
    for code, (name, religion, centres, units, colour) in SEED_POWERS.items():
        p = by_code[code]
        assert p["name"] == name
        assert p["religion"] == religion
        assert set(p["home_centres"]) | set(p.get("owned_centres", [])) == centres
        assert {strip_coast(u) for u in p["units"]} == units
        assert p["colour"].lower() == colour
        assert p["adjective"]
        assert all(a == a.lower() for a in p.get("aliases", []))


def test_home_centres():
    by_code = {p["code"]: p for p in POWERS.values()}
    assert set(by_code["HA"]["home_centres"]) == {"vie", "bud", "mil"}
    assert by_code["HA"]["owned_centres"] == ["sne"]
    for code, p in by_code.items():
        if code != "HA":
            assert "owned_centres" not in p
    extra = {code for code, p in by_code.items() if p.get("extra_home_centre")}
    assert extra == {"DN", "OT", "PS", "SP", "SW"}


def test_special_home_centres():
    rules = {(r["power"], r["centre"], r["rule"]) for r in VARIANT["special_home_centres"]}
    assert rules == {("habsburg", "sne", "never_build"), ("russia", "cri", "home_while_controlled")}
    assert POWERS["habsburg"]["code"] == "HA" and POWERS["russia"]["code"] == "RU"
    assert "cri" in MINORS


def test_seventeen_minor_powers():
    assert len(MINORS) == 17
    assert set(MINORS) == set(SEED_MINORS)
    for mid, (religion, kind) in SEED_MINORS.items():
        m = MINORS[mid]
        assert m["religion"] == religion, mid
        assert m["units"] == [f"{kind} {mid}"], mid
        assert PROVINCES[mid]["supply_centre"] is True
    assert MINORS["swi"]["name"] == "Switzerland"
    assert MINORS["nas"]["name"] == "Naples & Sicily"


def test_units_stand_on_own_centres_or_where_the_rules_put_them():
    # The only unit off a centre: Britain's F Gibraltar (the rules' note).
    off_centre = {("britain", "F gib")}
    for pid, p in POWERS.items():
        own = set(p["home_centres"]) | set(p.get("owned_centres", []))
        for u in p["units"]:
            kind, loc = parse_unit(u)
            assert unit_location_valid(kind, loc), (pid, u)
            if (pid, u) in off_centre:
                continue
            assert loc.split("/")[0] in own, (pid, u)
    for mid, m in MINORS.items():
        for u in m["units"]:
            kind, loc = parse_unit(u)
            assert unit_location_valid(kind, loc), (mid, u)
            assert loc == mid


def test_turkish_fleet_names_a_smyrna_coast():
    fleets = [u for u in POWERS["ottoman"]["units"] if u.startswith("F ")]
    assert len(fleets) == 1 and fleets[0] in ("F smy/nc", "F smy/sc")


def test_no_centre_owned_twice_and_all_accounted():
    owners: dict[str, str] = {}
    for pid, p in POWERS.items():
        for c in list(p["home_centres"]) + list(p.get("owned_centres", [])):
            assert c not in owners, (c, pid, owners.get(c))
            owners[c] = pid
    for mid in MINORS:
        assert mid not in owners, mid
        owners[mid] = mid
    assert set(owners) == SEED_CENTRES
    assert len(owners) == 44


def test_no_two_units_in_one_province():
    seen = set()
    for owner in list(POWERS.values()) + list(MINORS.values()):
        for u in owner["units"]:
            prov = parse_unit(u)[1].split("/")[0]
            assert prov not in seen, u
            seen.add(prov)


def test_religion_data():
    assert set(VARIANT["religions"]["christian"]) == {"catholic", "protestant", "orthodox"}
    assert VARIANT["papal_army"]["minor"] == "pap"
    assert VARIANT["papal_army"]["unit"] == "A pap"
    assert VARIANT["diplomacy_points"]["max_per_turn"] == 3
    unified = VARIANT["unified_coasts"]
    assert unified == [{"province": "smy", "coasts": ["nc", "sc"], "for_fleets_of_controller_of": "con"}]
