"""7 Wonders (base game, 3-7 players) as a turn-file game: the TurnGame
implementation the driver calls through the module-level GAME.

State outline (plain YAML data):
    players   seating order; left neighbour = next name, right = previous
    age, turn turn 1-6 of the Age; 7 means the Age's turns are done but
              extra steps (Babylon B's seventh card, Halikarnassos' pick) remain
    pending   those extra steps, each {kind, player, name}
    cities    per player: wonder, side, stages, coins, built, tucked, tokens,
              hand (secret), free_used_age
    discard   the face-down discard pile (secret)
    guilds    the guilds drawn for Age III (secret until played)
    scores    the final score sheets, once the game is over"""

from __future__ import annotations

from typing import Any

from adjudicator.cards.common import (
    Choice,
    ChoiceError,
    Event,
    Outcome,
    ParsedData,
    PhaseInfo,
    State,
    VariantData,
    new_rng_record,
    rng,
)
from adjudicator.cards.seven_wonders import views
from adjudicator.cards.seven_wonders.actions import Resolved, resolve
from adjudicator.cards.seven_wonders.cards import (
    AGE_NAMES,
    Catalog,
    catalog,
    deck_for_age,
)
from adjudicator.cards.seven_wonders.scoring import (
    effect_count,
    final_scores,
    military,
    neighbours,
)
from adjudicator.cards.seven_wonders.texts import and_list, plural
from adjudicator.cards.seven_wonders.trading import describe, stage_effects
from adjudicator.errors import DataFileError

HAND_SIZE = 7
TURNS_PER_AGE = 6
PASS_LEFT = {1: True, 2: False, 3: True}


class SevenWonders:
    name = "seven-wonders"
    # The field names its choices use: a mailed line with one of these keys is
    # the player's choice, never a misspelt password (Ambition's `secret: true`).
    choice_keys = frozenset({"action", "card", "buy", "free", "left", "right"})
    title = "7 Wonders"
    min_players = 3
    max_players = 7

    def __init__(self) -> None:
        self.variant_data = VariantData(self.name)
        # parsing the cards is slow; every call of one command passes the same data
        self.catalog_of = ParsedData(catalog)

    # ---- set-up -------------------------------------------------------
    def setup(self, players: list[str], seed: int, data: dict[str, Any]) -> State:
        cat = self.catalog_of(data)
        side_option = str(cat.options.get("side", "A"))
        if side_option not in ("A", "B", "random"):
            raise DataFileError(f"rules.side must be A, B or random, got {side_option!r}")
        state: State = {"rng": new_rng_record(seed), "players": list(players), "age": 1, "turn": 1,
                        "pending": [], "discard": [], "guilds": [], "cities": {}}
        cities = sorted(cat.wonders)
        rng(state).shuffle(cities)
        for player, city_name in zip(players, cities):
            side = side_option if side_option != "random" else rng(state).choice(["A", "B"])
            state["cities"][player] = {"wonder": city_name, "side": side, "stages": 0, "coins": 3,
                                       "built": [], "tucked": [], "tokens": [], "hand": [],
                                       "free_used_age": 0}
        guilds = sorted(c.name for c in cat.guilds())
        state["guilds"] = sorted(rng(state).sample(guilds, len(players) + 2))
        _deal(cat, state, 1)
        return state

    # ---- phases -------------------------------------------------------
    def phase(self, state: State) -> PhaseInfo | None:
        if state.get("scores") is not None:
            return None
        if state["pending"]:
            step = state["pending"][0]
            what = ("plays the seventh card (Babylon)" if step["kind"] == "seventh"
                    else "builds a card from the discard pile (Halikarnassos)")
            return PhaseInfo(step["name"], "sequential", [step["player"]],
                             f"Age {AGE_NAMES[state['age']]}: {step['player']} {what}")
        return PhaseInfo(f"age{state['age']}-turn{state['turn']}", "simultaneous", list(state["players"]),
                         f"Age {AGE_NAMES[state['age']]}, turn {state['turn']}")

    def _kind(self, state: State) -> str:
        return state["pending"][0]["kind"] if state["pending"] else "turn"

    # ---- validation ---------------------------------------------------
    def validate(self, state: State, turn: dict[str, Choice], data: dict[str, Any]) -> list[ChoiceError]:
        cat = self.catalog_of(data)
        info = self.phase(state)
        errors: list[ChoiceError] = []
        if info is None:
            return [ChoiceError(p, p, "the game is over") for p in turn]
        for player, choice in turn.items():
            if player not in state["cities"]:
                errors.append(ChoiceError(str(player), str(player),
                                          f"unknown player; players are {', '.join(state['players'])}"))
            elif player not in info.waiting_for:
                errors.append(ChoiceError(player, player,
                                          f"not your turn: waiting for {', '.join(info.waiting_for)}"))
            else:
                errors += resolve(cat, state, player, choice, self._kind(state))[0]
        return errors

    def default_choice(self, state: State, player: str, data: dict[str, Any]) -> Choice | None:
        """A silent player sells the first card of their hand (always legal);
        a silent Halikarnassos passes on the discard pile."""
        if self._kind(state) == "discard":
            return {"action": "pass"}
        hand = state["cities"][player]["hand"]
        return {"action": "sell", "card": hand[0]} if hand else None

    # ---- applying -----------------------------------------------------
    def apply(self, state: State, turn: dict[str, Choice], data: dict[str, Any]) -> Outcome:
        cat = self.catalog_of(data)
        kind = self._kind(state)
        plans: list[Resolved] = []
        for player in state["players"]:
            if player in turn:
                errors, plan = resolve(cat, state, player, turn[player], kind)
                if errors or plan is None:
                    raise DataFileError(f"apply called with a bad choice: {errors[0] if errors else player}")
                plans.append(plan)
        events: list[Event] = []
        if kind == "turn":
            _play_turn(cat, state, plans, events)
            _end_of_turn(cat, state, events)
        else:
            state["pending"].pop(0)
            if kind == "seventh":
                _play_turn(cat, state, plans, events)
            else:
                _pick_from_discard(cat, state, plans[0], events)
        _advance(cat, state, events)
        return Outcome(state, events)

    # ---- views --------------------------------------------------------
    def public_view(self, state: State, data: dict[str, Any] | None = None) -> dict[str, Any]:
        return views.public(self._catalog(data), state)

    def private_view(self, state: State, player: str, data: dict[str, Any] | None = None) -> dict[str, Any]:
        return views.private(self._catalog(data), state, player)

    def _catalog(self, data: dict[str, Any] | None) -> Catalog:
        """The game's own data when the driver passes it; otherwise the catalog
        last read, or the installed variant file's."""
        if data:
            return self.catalog_of(data)
        last = self.catalog_of.last
        return last if last is not None else self.catalog_of(self.variant_data.installed())


def _deal(cat: Catalog, state: State, age: int) -> None:
    deck = deck_for_age(cat, age, len(state["players"]), state["guilds"])
    deck.sort()
    rng(state).shuffle(deck)
    for i, player in enumerate(state["players"]):
        state["cities"][player]["hand"] = deck[i * HAND_SIZE:(i + 1) * HAND_SIZE]


def _play_turn(cat: Catalog, state: State, plans: list[Resolved], events: list[Event]) -> None:
    """Everyone acts at once: pay, place, then collect income, so coins
    earned this turn (trade, sales) cannot pay for this turn's builds."""
    income = {p: 0 for p in state["players"]}
    new_cards: list[tuple[str, str]] = []
    for plan in plans:
        city = state["cities"][plan.player]
        seats = neighbours(state["players"], plan.player)
        assert plan.card is not None
        city["hand"].remove(plan.card)
        city["coins"] -= plan.total_coins
        if plan.plan:
            for side, coins in plan.plan.trade_cost.items():
                income[seats[side]] += coins
        if plan.action == "sell":
            state["discard"].append(plan.card)
            income[plan.player] += 3
            events.append(Event(f"{plan.player} sold a card for 3 coins."))
            events.append(Event(f"You sold {plan.card}.", (plan.player,)))
            continue
        paid = _payment_text(plan, seats)
        if plan.action == "wonder":
            city["stages"] += 1
            city["tucked"].append(plan.card)
            events.append(Event(f"{plan.player} built stage {plan.stage} of {city['wonder']}{paid}."))
            events.append(Event(f"You tucked {plan.card} under your wonder.", (plan.player,)))
            _stage_built(cat, state, plan.player, events)
        else:
            city["built"].append(plan.card)
            if plan.free:
                city["free_used_age"] = state["age"]
            events.append(Event(f"{plan.player} built {plan.card}{paid}."))
            new_cards.append((plan.player, plan.card))
        if plan.chosen_by_judge and plan.plan:
            bought = "; ".join(f"{describe(_counts(r))} from {seats[s]} for {plural(plan.plan.trade_cost[s], 'coin')}"
                               for s, r in plan.plan.buy.items())
            events.append(Event(f"  ({plan.player} named no purchase; the judge chose the cheapest: {bought})"))
    # Commercial coin effects count the cities as they stand after this turn's builds.
    for player, name in new_cards:
        income[player] += _build_coins(cat, state, player, name, events)
    for player in state["players"]:
        state["cities"][player]["coins"] += income[player]


def _payment_text(plan: Resolved, seats: dict[str, str]) -> str:
    if plan.free and plan.action == "build":
        return " for free (Olympia)"
    if plan.chained:
        return f" for free (chain from {plan.chained})"
    parts = []
    if plan.bank_coins:
        parts.append(f"{plural(plan.bank_coins, 'coin')} to the bank")
    if plan.plan:
        for side, resources in plan.plan.buy.items():
            parts.append(f"{plural(plan.plan.trade_cost[side], 'coin')} to {seats[side]} for {', '.join(resources)}")
    return f", paying {'; '.join(parts)}" if parts else ""


def _counts(items: list[str]) -> dict[str, int]:
    out: dict[str, int] = {}
    for item in items:
        out[item] = out.get(item, 0) + 1
    return out


def _build_coins(cat: Catalog, state: State, player: str, name: str, events: list[Event]) -> int:
    effect = cat.card(name).effect
    coins = int(effect.get("coins", 0))
    if "coins_per" in effect:
        coins += effect_count(cat, state, player, effect["coins_per"])
    if coins:
        events.append(Event(f"{player} takes {plural(coins, 'coin')} from the bank ({name})."))
    return coins


def _stage_built(cat: Catalog, state: State, player: str, events: list[Event]) -> None:
    city = state["cities"][player]
    effect = stage_effects(cat, city)[-1]
    if effect.get("coins"):
        city["coins"] += int(effect["coins"])
        events.append(Event(f"{player} takes {plural(int(effect['coins']), 'coin')} from the bank (wonder stage)."))
    if effect.get("discard_build"):
        state["pending"].append({"kind": "discard", "player": player,
                                 "name": f"age{state['age']}-turn{state['turn']}-discard"})


def _end_of_turn(cat: Catalog, state: State, events: list[Event]) -> None:
    """Pass hands, or at the end of the sixth turn discard the seventh cards
    (Babylon B with its second stage keeps it to play)."""
    players = state["players"]
    if state["turn"] < TURNS_PER_AGE:
        hands = [state["cities"][p]["hand"] for p in players]
        # Passing left gives your hand to your left neighbour, the next name.
        shift = 1 if PASS_LEFT[state["age"]] else -1
        for i, player in enumerate(players):
            state["cities"][player]["hand"] = hands[(i - shift) % len(players)]
        state["turn"] += 1
        return
    state["turn"] = TURNS_PER_AGE + 1
    seventh: list[dict[str, str]] = []
    discarding: list[str] = []
    for player in players:
        city = state["cities"][player]
        if city["hand"] and any(e.get("play_seventh") for e in stage_effects(cat, city)):
            seventh.append({"kind": "seventh", "player": player, "name": f"age{state['age']}-seventh"})
            continue
        discarding.append(player)
        state["discard"].extend(city["hand"])
        city["hand"] = []
    # Babylon plays before Halikarnassos looks through the pile.
    state["pending"][:0] = seventh
    if not seventh:
        events.append(Event("The seventh cards are discarded face down."))
        return
    keepers = [step["player"] for step in seventh]
    kept = (f"{and_list(keepers)} {'keeps' if len(keepers) == 1 else 'keep'} the seventh card "
            "to play it (Babylon).")
    if discarding:
        events.append(Event(f"{and_list(discarding)} discard{'s' if len(discarding) == 1 else ''} "
                            f"{'their seventh cards' if len(discarding) > 1 else 'the seventh card'} face down; "
                            + kept))
    else:
        events.append(Event(kept[0].upper() + kept[1:]))


def _pick_from_discard(cat: Catalog, state: State, plan: Resolved, events: list[Event]) -> None:
    if plan.action == "pass" or plan.card is None:
        events.append(Event(f"{plan.player} builds nothing from the discard pile."))
        return
    state["discard"].remove(plan.card)
    state["cities"][plan.player]["built"].append(plan.card)
    events.append(Event(f"{plan.player} built {plan.card} from the discard pile for free (Halikarnassos)."))
    state["cities"][plan.player]["coins"] += _build_coins(cat, state, plan.player, plan.card, events)


def _advance(cat: Catalog, state: State, events: list[Event]) -> None:
    """Drop extra steps that cannot happen, then close the Age when its
    turns and extra steps are done."""
    while state["pending"]:
        step = state["pending"][0]
        city = state["cities"][step["player"]]
        if step["kind"] == "discard" and not [c for c in state["discard"] if c not in city["built"]]:
            events.append(Event(f"{step['player']} finds nothing to build in the discard pile."))
            state["pending"].pop(0)
            continue
        return
    if state["turn"] <= TURNS_PER_AGE:
        return
    age = state["age"]
    events.append(Event(f"Military conflicts of Age {AGE_NAMES[age]}:"))
    results = {(player, other): (mine, theirs, token)
               for player, other, mine, theirs, token in military(cat, state, age)}
    told: set[tuple[str, str]] = set()
    for (player, other), (mine, theirs, token) in results.items():
        if (other, player) in told:
            continue  # each pair of neighbours is told once
        told.add((player, other))
        their_token = results.get((other, player), (0, 0, 0))[2]
        outcome = (f"{player} {_token_text(token)}, {other} {_token_text(their_token)}" if token
                   else "tie, no tokens")
        events.append(Event(f"  {player} ({plural(mine, 'shield')}) vs {other} ({plural(theirs, 'shield')}): "
                            f"{outcome}"))
    if age == 3:
        state["scores"] = final_scores(cat, state)
        winners = [s["player"] for s in state["scores"] if s["rank"] == 1]
        events.append(Event(f"Game over. Winner: {' and '.join(winners)}."))
        return
    state["age"], state["turn"] = age + 1, 1
    _deal(cat, state, age + 1)
    events.append(Event(f"Age {AGE_NAMES[age + 1]} begins; hands pass "
                        f"{'left' if PASS_LEFT[age + 1] else 'right'}."))


def _token_text(token: int) -> str:
    return f"takes a victory token (+{token})" if token > 0 else "takes a defeat token (-1)"


GAME = SevenWonders()
