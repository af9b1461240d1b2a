"""Phases and whole-game flow: the draft, pending choices, turn order, the
final round, reset abilities, scoring and tie-breaks."""

from __future__ import annotations

import copy

import pytest

from adjudicator.cards.age_of_artisans.core import Ctx
from adjudicator.cards.age_of_artisans.engine import GAME
from adjudicator.cards.age_of_artisans.scoring import score

from .helpers import DATA, patched, play


def test_setup_is_deterministic_and_plain() -> None:
    a = GAME.setup(["alice", "bob", "carol"], 42, DATA)
    b = GAME.setup(["alice", "bob", "carol"], 42, DATA)
    assert a == b
    assert GAME.setup(["alice", "bob", "carol"], 43, DATA) != a
    silver = [a["players"][n]["silver"] for n in a["order"]]
    assert silver == [3, 4, 5]
    assert all(len(a["players"][n]["hand"]) == 3 for n in a["order"])
    assert len(a["rewards"]) == 7
    assert sorted(a["order"]) == ["alice", "bob", "carol"]


def test_draft_runs_in_reverse_turn_order_and_refills_without_sliding() -> None:
    state = GAME.setup(["alice", "bob", "carol"], 3, DATA)
    order = state["order"]
    start = [list(row) for row in state["display"]]
    deck_top = state["apprentice_deck"][:3]
    picks = [(0, 1), (1, 0), (0, 3)]   # (row, column) taken by each drafter in turn
    seen = []
    while state["stage"] == "draft":
        info = GAME.phase(state)
        assert info is not None and info.mode == "sequential"
        who = info.waiting_for[0]
        seen.append(who)
        r, c = picks[len(seen) - 1]
        state, _ = play(state, who, {"hire": start[r][c]})
        assert state["players"][who]["apprentices"] == [start[r][c]]
        if state["stage"] == "draft":
            # the space stays empty while the draft goes on: nothing slides, nothing is drawn
            assert state["display"][r][c] is None
            assert state["apprentice_deck"][:3] == deck_top
    assert seen == list(reversed(order))
    # afterwards each empty space is filled where it is, from the top of the deck
    want = [list(row) for row in start]
    for (r, c), new in zip(sorted(picks), deck_top):
        want[r][c] = new
    assert state["display"] == want
    assert GAME.phase(state).waiting_for == [order[0]]


def test_draft_default_skips_empty_spaces() -> None:
    state = GAME.setup(["alice", "bob"], 4, DATA)
    first = state["display"][0][0]
    state, _ = play(state, state["draft_left"][0], {"hire": first})
    default = GAME.default_choice(state, state["draft_left"][0], DATA)
    assert default == {"hire": state["display"][0][1]}
    assert GAME.validate(state, {state["draft_left"][0]: default}, DATA) == []


def test_guildhall_discard_space_depends_on_player_count() -> None:
    # 3 players: rows of 4, so the 3rd space of row 2 is space 7 (space 6 is not one)
    players = ("alice", "bob", "carol")
    given = {"display": [[1, 2, 3, 4], [5, 6, 7, 8]], "apprentice_deck": [9, 10],
             "players.alice.hand": [1], "players.alice.clay": 4, "players.alice.wood": 2}
    for filled, discards in ((5, False), (6, True)):
        state = patched(dict(given, guildhall=["bob"] * filled), players)
        state, _ = play(state, "alice", {"place": "guildhall", "build": 1})
        assert (state["apprentice_discard"] == [1, 5]) is discards, filled


def test_not_your_turn_is_reported() -> None:
    state = patched({})
    errors = GAME.validate(state, {"bob": {"place": "forest"}}, DATA)
    assert [(e.player, e.reason.split(":")[0]) for e in errors] == [("bob", "not your turn")]


def test_turns_alternate() -> None:
    state = patched({})
    state, _ = play(state, "alice", {"place": "forest"})
    assert GAME.phase(state).waiting_for == ["bob"]
    state, _ = play(state, "bob", {"place": "forest"})
    assert GAME.phase(state).waiting_for == ["alice"]
    assert state["turn"] == 3


def test_keep_phase_follows_middle_slot_draw() -> None:
    state = patched({"building_deck": [11, 12, 13, 14, 15, 16]})
    state, _ = play(state, "alice", {"place": "black_market", "slot": "middle", "draw": True})
    info = GAME.phase(state)
    assert info.name.endswith("alice-keep")
    bad = GAME.validate(state, {"alice": {"keep": 16}}, DATA)
    assert bad and bad[0].field == "keep"
    state, _ = play(state, "alice", {"keep": 13})
    assert 13 in state["players"]["alice"]["hand"]
    assert state["building_deck"] == [16, 11, 12, 14, 15]
    assert GAME.phase(state).waiting_for == ["bob"]


def test_hand_limit_asks_for_a_discard() -> None:
    state = patched({"players.alice.hand": [1, 2, 3, 4, 5, 6], "building_deck": [7, 8]})
    state, _ = play(state, "alice", {"place": "workhouse", "draw": True})
    assert GAME.phase(state).name.endswith("alice-discard")
    assert GAME.validate(state, {"alice": {"discard": [1, 2]}}, DATA)
    state, _ = play(state, "alice", {"discard": [7]})
    assert sorted(state["players"]["alice"]["hand"]) == [1, 2, 3, 4, 5, 6]
    assert GAME.phase(state).waiting_for == ["bob"]


def test_empty_supply_turn_is_a_recall() -> None:
    state = patched({"players.alice.supply": 0, "board.forest": {"alice": 2}})
    assert GAME.validate(state, {"alice": {"place": "forest"}}, DATA)[0].field == "recall"
    state, _ = play(state, "alice", {"recall": "forest"})
    assert state["players"]["alice"]["supply"] == 1
    assert state["board"]["forest"] == {"alice": 1}


def test_reset_abilities_then_prison_virtue_then_debt() -> None:
    given = {"black_market": {"small": "bob", "middle": "bob", "large": None},
             "players.alice.apprentices": [9, 26, 43], "players.alice.prison": 2,
             "players.bob.prison": 0, "players.bob.apprentices": [27], "players.alice.silver": 5}
    state, events = play(patched(given), "alice", {"place": "black_market", "slot": "large"})
    alice, bob = state["players"]["alice"], state["players"]["bob"]
    # alice: 2 + 1 (her worker) = 3 in prison, Gatekeeper frees 2 -> 1: no Squire gold, no virtue loss
    assert alice["prison"] == 1 and alice["gold"] == 1   # 1 gold is the large market's
    assert alice["virtue"] == 6                           # only the Black Market's own loss
    assert alice["silver"] == 5 - 3 + 2                  # Peddler
    # bob: his two workers went to prison -> most in prison -> a debt; no Squire marble
    assert bob["prison"] == 2 and bob["marble"] == 0 and bob["debts_unpaid"] == 1 and bob["virtue"] == 7
    assert alice["debts_unpaid"] == 0
    assert any("Black Market reset" in e for e in events)


def test_reset_ties_for_most_in_prison_all_take_a_debt() -> None:
    given = {"black_market": {"small": "bob", "middle": None, "large": "alice"}, "players.bob.prison": 1}
    state, _ = play(patched(given), "alice", {"place": "black_market", "slot": "middle", "hire":
                                              patched({})["display"][0][0]})
    assert state["players"]["alice"]["debts_unpaid"] == 1
    assert state["players"]["bob"]["debts_unpaid"] == 1


def test_last_guildhall_space_gives_everyone_one_more_turn() -> None:
    given = {"guildhall": ["bob"] * 11, "players.alice.hand": [1], "players.alice.clay": 4,
             "players.alice.wood": 2}
    state, events = play(patched(given), "alice", {"place": "guildhall", "build": 1})
    assert state["final_left"] == ["bob", "alice"]
    assert "one more turn" in " ".join(events)
    assert GAME.phase(state).waiting_for == ["bob"]
    assert "final round" in GAME.phase(state).title
    state, _ = play(state, "bob", {"place": "forest"})
    assert GAME.phase(state).waiting_for == ["alice"]
    errors = GAME.validate(state, {"alice": {"place": "guildhall", "build": 1}}, DATA)
    assert errors and "full" in errors[0].reason
    state, _ = play(state, "alice", {"place": "quarry"})
    assert GAME.phase(state) is None
    assert state["scores"]["sheet"][0]["player"] in ("alice", "bob")


def test_score_sheet_has_every_source() -> None:
    state = patched({
        "players.alice.buildings": [6, 27], "players.alice.apprentices": [2, 13],
        "players.alice.cathedral": 2, "players.alice.virtue": 12, "players.alice.gold": 2,
        "players.alice.marble": 1, "players.alice.silver": 23, "players.alice.debts_unpaid": 3,
        "players.alice.prison": 5,
    })
    ctx = Ctx(state, DATA, "alice")
    result = score(ctx)
    row = next(r for r in result["sheet"] if r["player"] == "alice")
    # Tiler's Hut 5 + 2 tiling apprentices (Acolyte, Labourer); Fountain 4
    assert row["buildings"] == 5 + 2 + 4
    assert row["cathedral"] == 4
    assert row["virtue"] == 3
    assert row["gold_marble"] == 3
    assert row["coins"] == 2
    assert row["debts"] == -3          # Fountain: -1 each
    assert row["prison"] == -2
    assert row["total"] == 11 + 4 + 3 + 3 + 2 - 3 - 2


def test_pre_scoring_virtue_effects_apply_before_the_table() -> None:
    # Castle: +1 virtue per 2 gold; Dungeon: -2 virtue
    state = patched({"players.alice.buildings": [18, 24], "players.alice.gold": 4, "players.alice.virtue": 9})
    result = score(Ctx(state, DATA, "alice"))
    assert state["players"]["alice"]["virtue"] == 9 + 2 - 2
    row = next(r for r in result["sheet"] if r["player"] == "alice")
    assert row["virtue"] == 0


@pytest.mark.parametrize("alice,bob,winner", [
    ({"virtue": 8}, {"virtue": 7}, "alice"),
    ({"virtue": 7, "silver": 3}, {"virtue": 7, "silver": 5}, "bob"),
])
def test_ties_broken_by_virtue_then_coins(alice: dict, bob: dict, winner: str) -> None:
    given = {f"players.alice.{k}": v for k, v in alice.items()}
    given.update({f"players.bob.{k}": v for k, v in bob.items()})
    state = patched(given)
    result = score(Ctx(state, DATA, "alice"))
    totals = {r["player"]: r["total"] for r in result["sheet"]}
    assert totals["alice"] == totals["bob"]
    assert result["winners"] == [winner]


def test_four_players_capture_from_one_location_only() -> None:
    players = ("alice", "bob", "carol", "dave")
    state = patched({"board.forest": {"bob": 1}, "board.mines": {"carol": 1}, "board.town_center": {"alice": 1}},
                    players)
    errors = GAME.validate(state, {"alice": {"place": "town_center", "captures": [
        {"player": "bob", "location": "forest"}, {"player": "carol", "location": "mines"}]}}, DATA)
    assert any("same location" in e.reason for e in errors)


def test_three_players_seed_allows_three_locations_official_two() -> None:
    players = ("alice", "bob", "carol")
    given = {"board.forest": {"bob": 1}, "board.mines": {"carol": 1}, "board.quarry": {"bob": 1},
             "board.town_center": {"alice": 2}}
    choice = {"place": "town_center", "captures": [{"player": "bob", "location": "forest"},
                                                   {"player": "carol", "location": "mines"},
                                                   {"player": "bob", "location": "quarry"}]}
    assert GAME.validate(patched(given, players), {"alice": choice}, DATA) == []
    official = dict(given, **{"rules.artisans_official": True})
    errors = GAME.validate(patched(official, players), {"alice": choice}, DATA)
    assert any("at most 2 locations" in e.reason for e in errors)


def test_validate_does_not_touch_state() -> None:
    state = patched({"building_deck": [1, 2, 3, 4, 5, 6]})
    before = copy.deepcopy(state)
    GAME.validate(state, {"alice": {"place": "black_market", "slot": "middle", "draw": True}}, DATA)
    assert state == before


def test_four_players_capture_several_players_at_one_location_for_one_tax() -> None:
    players = ("alice", "bob", "carol", "dave")
    given = {"board.forest": {"bob": 2, "carol": 1}, "board.town_center": {"alice": 1}, "tax_stand": 0,
             "players.alice.silver": 3}
    state, _ = play(patched(given, players), "alice", {"place": "town_center", "captures": [
        {"player": "bob", "location": "forest"}, {"player": "carol", "location": "forest"}]})
    assert state["players"]["alice"]["captured"] == {"bob": 2, "carol": 1}
    assert state["tax_stand"] == 1                      # 1 tax for the visit
    assert state["players"]["alice"]["silver"] == 3 - 2  # + 1 silver for the second group


def test_final_round_starts_after_the_trigger_player_and_ends_with_them() -> None:
    players = ("alice", "bob", "carol")
    given = {"guildhall": ["alice"] * 15, "current": "bob", "players.bob.hand": [1],
             "players.bob.clay": 4, "players.bob.wood": 2}
    state, _ = play(patched(given, players), "bob", {"place": "guildhall", "build": 1})
    seen = []
    while (info := GAME.phase(state)) is not None:
        who = info.waiting_for[0]
        seen.append(who)
        state, _ = play(state, who, {"place": "forest"})
    assert seen == ["carol", "alice", "bob"]
    assert state["stage"] == "over" and state["scores"] is not None


def test_taxed_payments_are_reported_with_the_tax_and_any_relief() -> None:
    given = {"players.bob.captured": {"alice": 2}, "players.alice.silver": 6,
             "players.alice.virtue": 3, "tax_stand": 0}
    _, events = play(patched(given), "alice", {"place": "guardhouse", "actions": ["release_captured"]})
    text = "\n".join(events)
    assert "alice pays 3 silver + 1 tax" in text
    assert "1 tax waived at virtue 3" in text


@pytest.mark.parametrize("alice,bob,want", [
    # end-game building bonuses (alice's "buildings" column)
    ({"buildings": [3], "stone": 3}, {"stone": 2}, {"buildings": 7 + 2}),          # Stone Market, most
    ({"buildings": [3], "stone": 2}, {"stone": 2}, {"buildings": 7}),              # a tie scores nothing
    ({"buildings": [2], "cathedral": 2}, {"cathedral": 1}, {"buildings": 4 + 2}),  # Steeple
    ({"buildings": [2], "cathedral": 1}, {"cathedral": 1}, {"buildings": 4}),
    ({"buildings": [9]}, {}, {"buildings": 11 + 2}),                               # University, no debt
    ({"buildings": [9], "debts_unpaid": 1}, {}, {"buildings": 11, "debts": -2}),
    ({"buildings": [13, 1]}, {}, {"buildings": 3 + 2 + 3}),                        # Aqueduct (+ Smithy)
    ({"buildings": [30], "captured": {"bob": 7}}, {}, {"buildings": 12 + 2}),      # Keep
    ({"buildings": [32], "virtue": 9}, {}, {"buildings": 6 + 2}),                  # Lighthouse
    ({"buildings": [35], "debts_paid": 2}, {}, {"buildings": 5 + 2}),              # Moneylender
    ({"buildings": [28], "debts_unpaid": 2}, {}, {"debts": -6}),                   # Gambler's Den
    # before-scoring virtue effects (alice's final virtue)
    ({"buildings": [7], "clay": 4, "wood": 3, "stone": 1}, {}, {"final_virtue": 9}),   # Trading Post
    ({"buildings": [19], "cathedral": 1}, {}, {"final_virtue": 9}),                    # Chapel
    ({"buildings": [37], "marble": 4}, {}, {"final_virtue": 9}),                       # Observatory
    ({"buildings": [39], "debts_paid": 4}, {}, {"final_virtue": 9}),                   # Reservoir
    ({"buildings": [43, 1, 11]}, {}, {"final_virtue": 8}),                             # Museum
])
def test_end_game_building_effects(alice: dict, bob: dict, want: dict) -> None:
    given = {f"players.alice.{k}": v for k, v in alice.items()}
    given.update({f"players.bob.{k}": v for k, v in bob.items()})
    state = patched(given)
    result = score(Ctx(state, DATA, "alice"))
    row = next(r for r in result["sheet"] if r["player"] == "alice")
    for key, value in want.items():
        got = state["players"]["alice"]["virtue"] if key == "final_virtue" else row[key]
        assert got == value, key
