"""The text path's shortcuts, which make reading orders cheap, change no result: the fast path reads
a plain line exactly as the full parser does, tables are built once, and the
DATC runner's direct unit reading agrees with the parser."""
from __future__ import annotations

import random
import re
from dataclasses import replace
from pathlib import Path

import pytest

from adjudicator.cases.datc import lookup_power, read_cases, unit_location
from adjudicator.diplomacy.orders import (
    Convoy,
    Hold,
    Move,
    Order,
    SupportHold,
    SupportMove,
)
from adjudicator.diplomacy.parser import OrderParser, parser_for
from adjudicator.errors import OrderError
from adjudicator.rules import load_variant

DATC = Path(__file__).resolve().parent.parent.parent / "shared" / "datc" / "datc_v2.4_06.txt"
ORDER_WORDS = ["A", "F", "a", "army", "Fleet", "-", "->", "=>", "S", "s", "C", "c", "H", "h", "hold", "to",
               "m", "via", "convoy", "nc", "sc", "north", "coast", "n", "/", "(nc)", "w", "x", "e", "nth-pic",
               "mid-atlantic", "a-b", "-nth"]


def lines_for(parser: OrderParser, count: int, seed: int) -> list[str]:
    """Plain shapes over every way to write a place, some with a word
    changed or added, some in capitals."""
    graph = parser.graph
    places = sorted({*graph.location_province, *parser.names.keys, *(p.name for p in graph.provinces.values())})
    vocabulary = places + ORDER_WORDS
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        unit = rng.choice(["A", "F", "a", "army", "fleet"])
        p1, p2, p3 = rng.choice(places), rng.choice(places), rng.choice(places)
        words = rng.choice([f"{unit} {p1}", f"{unit} {p1} H", f"{unit} {p1} - {p2}", f"{unit} {p1} S A {p2}",
                            f"{unit} {p1} S F {p2} - {p3}", f"{unit} {p1} C A {p2} - {p3}", f"{unit} {p1} s {p2} h",
                            f"{unit} {p1} S {p2} - {p3}", f"{unit} {p1} -> {p2}", f"{unit} {p1} to {p2}"]).split()
        if rng.random() < 0.3:
            words[rng.randrange(len(words))] = rng.choice(vocabulary)
        if rng.random() < 0.2:
            words.insert(rng.randrange(len(words) + 1), rng.choice(vocabulary))
        line = " ".join(words)
        if rng.random() < 0.3:
            line = line.replace(" - ", "-")            # the DATC's 'F nth-pic'
        out.append(line.upper() if rng.random() < 0.2 else line)
    return out


@pytest.mark.parametrize("variant_name", ["standard", "ambition-empire"])
def test_fast_path_reads_as_the_full_parser(variant_name: str) -> None:
    parser = parser_for(load_variant(variant_name))
    fast = 0
    for line in lines_for(parser, 4000, seed=14):
        plain = parser.plain_orders.read(line, "france")
        if plain is None:
            continue
        fast += 1
        full = parser.parse_tokens(line, "france")
        assert (type(plain), plain) == (type(full), full), line
    assert fast > 500          # the corpus does reach the fast path


@pytest.mark.parametrize("line, kind", [
    ("A par - bur", Move), ("F nth C A lon - nwy", Convoy), ("A mun S A ber - sil", SupportMove),
    ("A mun S A ber", SupportHold), ("A par H", Hold), ("F spa/sc - wes", Move), ("F nth-pic", Move),
    ("F por-spa/sc", Move), ("F spa/nc-mao", Move), ("F mao S F por-spa/nc", SupportMove),
    ("A mun S ber", SupportHold),
])
def test_common_lines_take_the_fast_path(line: str, kind: type) -> None:
    plain = parser_for(load_variant("standard")).plain_orders.read(line, "france")
    assert type(plain) is kind and str(plain) == line.replace("-", " - ").replace("  ", " ")


@pytest.mark.parametrize("line, written", [
    ("F North Sea C A London - Norway", "F nth C A lon - nwy"),
    ("Army Munich Supports A Berlin - Silesia", "A mun S A ber - sil"),
    ("fleet St Petersburg (South Coast) - Gulf of Bothnia", "F stp/sc - bot"),
    ("F Mid-Atlantic Ocean - Spain (North Coast)", "F mao - spa/nc"),
    ("f Gulf of Lyon S F Spain (sc) - Western Mediterranean", "F lyo S F spa/sc - wes"),
    ("A Budapest Hold", "A bud H"),
    ("A Budapest", "A bud H"),
    ("A bud s a ser h", "A bud S A ser"),
    ("F Spain (South Coast) holds", "F spa/sc H"),
    ("F Spain (sc) S A Gascony - Marseilles", "F spa/sc S A gas - mar"),
])
def test_full_names_take_the_fast_path(line: str, written: str) -> None:
    """Full names of several words and coasts in brackets, as players write them."""
    parser = parser_for(load_variant("standard"))
    plain = parser.plain_orders.read(line, "france")
    assert plain is not None and str(plain) == written
    assert plain == parser.parse_tokens(line, "france")


@pytest.mark.parametrize("variant_name", ["standard", "ambition-empire"])
def test_every_coast_in_brackets_reads_as_the_full_parser(variant_name: str) -> None:
    """Each coast of the map, after each way to write its province, in each
    way to write a coast in brackets (and some that are none), in each place
    of a line: where the fast path reads the line, it reads it as the full
    parser does."""
    parser = parser_for(load_variant(variant_name))
    graph = parser.graph
    words = {"nc": "(north coast)", "sc": "(south coast)", "ec": "(east coast)", "wc": "(west coast)"}
    other = min(graph.provinces)
    fast = 0
    for coast in graph.names.coast_ids:
        province, code = coast.split("/")
        for name in (province, graph.provinces[province].name, graph.provinces[province].name.upper()):
            for bracket in (f"({code})", f"({code.upper()})", words[code], f"( {code} )", f"({code[0]})",
                            "(north)", "(xx)", "(south coast", "south coast)", "((sc))"):
                place = f"{name} {bracket}"
                for line in (f"F {place}", f"F {place} - {other}", f"F {other} - {place}", f"F {place} H",
                             f"A {other} S F {place} - {other}", f"F {place} S A {other}"):
                    plain = parser.plain_orders.read(line, "france")
                    if plain is not None:
                        fast += 1
                        assert (type(plain), plain) == (type(full := parser.parse_tokens(line, "france")), full), line
    assert fast > 100


@pytest.mark.parametrize("variant_name", ["standard", "ambition-empire"])
def test_coast_ids_joined_by_hyphens_read_as_the_full_parser(variant_name: str) -> None:
    """The DATC file's compact form with a coast id on either side of the
    hyphen ('F por-spa/sc', 'F spa/nc-mao', in any case, as a move, support
    or convoy), for every coast id of the map and some that are not: the
    fast path reads each line that names real coasts, as the full parser does."""
    parser = parser_for(load_variant(variant_name))
    other = min(parser.graph.provinces)
    fast = 0
    coasts = [*parser.names.coast_ids, f"{other}/nc", "spa/xx", "nth/sc"]
    for coast in coasts:
        for line in (f"F {other}-{coast}", f"F {coast}-{other}", f"F {coast}-{coast}", f"A {other} S F {coast}-{other}",
                     f"F {other} S F {other}-{coast}", f"F {other} C A {coast}-{other}", f"f {coast.upper()}-{other}"):
            plain = parser.plain_orders.read(line, "france")
            try:
                full = parser.parse_tokens(line, "france")
            except OrderError:
                assert plain is None, line
                continue
            if plain is not None:
                fast += 1
                assert (type(plain), plain) == (type(full), full), line
            else:
                assert coast not in parser.names.coast_ids, line        # a real coast is never given up
    assert fast >= 6 * len(parser.names.coast_ids)


def test_lines_the_fast_path_leaves_alone() -> None:
    parser = parser_for(load_variant("standard"))
    for line in ["A par - bur via convoy", "F spa nc - mao", "A lon - nth - nwy", "A Burgund - par",
                 "F st petersburg sc H", "build A par", "F spa/xx-mao",
                 "F por-spa/sc/nc", "F por-/sc", "F spa/-mao", "F por-spa/"]:
        assert parser.plain_orders.read(line, "france") is None, line


def test_parse_order_reads_the_lines_the_fast_path_leaves() -> None:
    """The DATC and A&E case files read their unit lines with parse_order: the fast path, else the full reading."""
    parser = parser_for(load_variant("standard"))
    for line in ("A par - bur via convoy", "A par - bur", "F St Petersburg north coast"):
        assert parser.parse_order(line, "france") == parser.parse_tokens(line, "france"), line


def test_tables_are_built_once() -> None:
    variant = load_variant("standard")
    assert parser_for(variant) is parser_for(variant)
    assert variant.map.names is variant.map.names
    assert OrderParser(variant).names is variant.map.names


@pytest.mark.skipif(not DATC.exists(), reason="DATC file not present")
def test_datc_unit_lines_read_directly_as_the_parser_reads_them() -> None:
    variant = load_variant("standard")
    parser = parser_for(variant)
    _, cases = read_cases(DATC)
    read = 0
    for case in cases:
        for section in ("PRESTATE", "PRESTATE_SUPPLYCENTER_OWNERS", "PRESTATE_DISLODGED", "POSTSTATE",
                        "POSTSTATE_DISLODGED"):
            for _, text in case.sections.get(section, []):
                power_text, rest = text.split(":", 1) if ":" in text else text.split(None, 1)
                words = rest.split()
                location = unit_location(variant.map, " ".join(words[1:]))
                order = parser.parse_order(f"{words[0].upper()} {' '.join(words[1:])}",
                                           lookup_power(variant, power_text))
                assert isinstance(order, Order) and location == order.location, text
                read += 1
    assert read > 1000


POWER_PREFIX = re.compile(r"^\s*([^:]+):\s*(.*)$")      # the prefix as a pattern: what power_prefix must read


@pytest.mark.parametrize("variant_name", ["standard", "ambition-empire"])
def test_a_power_prefix_is_read_as_the_pattern_says(variant_name: str) -> None:
    """Everything before the first colon, if anything, names the power; the
    order is what follows, without the spaces before it."""
    parser = parser_for(load_variant(variant_name))
    names = [n for p in parser.variant.powers.values() for n in (p.name, p.adjective, p.code) if n]
    for name in [*names, "Nowhere", " ", ""]:
        for shape in ["{}:", "{} :", "{}::", "{}: A par - bur", "{}:A par H", "  {}:\tA par", "{}: : x", ":{}", "{}"]:
            line = shape.format(name)
            match = POWER_PREFIX.match(line)
            try:
                read = parser.power_prefix(line)
            except OrderError:
                read = None
            if match is None:
                bare = parser.power_lookup(line.strip()) if line.strip() else None
                assert read == ((bare, "") if bare is not None else (None, line)), line
            elif parser.power_lookup(match.group(1)) is None:
                assert read is None, line
            else:
                assert read == (parser.power_lookup(match.group(1)), match.group(2)), line


def full_heading(parser: OrderParser, line: str) -> str | None:
    """The power a line sets as a heading in the full reading: a power's
    name before a colon with nothing after it; None if it is no heading."""
    try:
        power, rest = parser.power_prefix(line)
    except OrderError:
        return None
    return power if not rest else None


@pytest.mark.parametrize("variant_name", ["standard", "ambition-empire"])
def test_headings_read_as_the_full_reading_reads_them(variant_name: str) -> None:
    """parse_text takes a heading alone ('Germany:') without the prefix
    pattern; each heading must set the power the full reading gives, and a
    line the full reading does not take as a heading must not be taken."""
    variant = load_variant(variant_name)
    parser = parser_for(variant)
    names = [n for p in variant.powers.values() for n in (p.name, p.adjective, p.code) if n]
    shapes = ["{}:", "{} :", "{}::", "{}: ", "{}:A par H", "{} and more:", ":{}", "{}"]
    taken = 0
    for name in [*names, *(n.upper() for n in names), "Nowhere", "", "A"]:
        for shape in shapes:
            line = shape.format(name)
            full = full_heading(parser, line)
            parsed = parser.parse_text(f"{line}\nA par H\n")
            after = [p for p in parsed if p.text == "A par H"]
            power = after[0].power if after else None
            assert power == full, line
            taken += full is not None
    assert taken > len(names)          # the corpus does reach the heading path



def test_a_power_named_like_an_order_is_a_heading() -> None:
    """A power's name of several words may start with a unit word (here an
    alias of France, 'A Par'): alone on its line, without a colon, it is
    that power's heading, as the full reading takes it, not an order for the
    army in Paris. So the fast path leaves a line that starts with that word
    to the full reading."""
    standard = load_variant("standard")
    france = standard.powers["france"]
    aliased = replace(france, extra={**france.extra, "aliases": [*france.extra.get("aliases", []), "A Par"]})
    parser = OrderParser(replace(standard, powers={**standard.powers, "france": aliased}))
    lines = parser.parse_text("England:\nA Par\nA bre - mao\nA mar - spa\n")
    assert [(l.power, str(l.order)) for l in lines] == [("france", "A bre - mao"), ("france", "A mar - spa")]


@pytest.mark.interpreted("counts the fast path's splits through a wrapper on the interpreted method")
def test_a_word_with_a_hyphen_is_split_once_and_the_memo_is_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    """Most lines repeat a few words such as 'nth-pic': each is split once
    and remembered; a stranger's text of new words cannot grow the memo past
    8192 words (it starts over)."""
    plain = OrderParser(load_variant("standard")).plain_orders
    split: list[str] = []
    real = plain._split_hyphens

    def counting(chunk: str) -> list[str]:
        split.append(chunk)
        return real(chunk)
    monkeypatch.setattr(plain, "_split_hyphens", counting)
    for _ in range(3):
        assert str(plain.read("F nth-pic", "france")) == "F nth - pic"
    assert split == ["nth-pic"]
    sizes = []
    for i in range(9000):
        plain.read(f"A par-x{i}", "france")
        sizes.append(len(plain._split))
    assert max(sizes) == 8192
