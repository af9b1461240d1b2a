"""Age of Artisans as a TurnGame: setup, phases (draft, then one player at a
time), validation by dry run, application, and the views.

Turn file (one player per phase):

    alice: {place: mines, take: gold}

See docs/games/age-of-artisans.md for every field."""

from __future__ import annotations

from typing import Any

from adjudicator.cards.age_of_artisans import board, guildhall, market, scoring, views
from adjudicator.cards.age_of_artisans.apprentices import fill_gaps, take_from_display
from adjudicator.cards.age_of_artisans.core import (
    RESOURCES,
    Ctx,
    apprentices,
    as_int,
    buildings,
    extra_keys,
    plural,
)
from adjudicator.cards.common import (
    Choice,
    ChoiceError,
    Event,
    Outcome,
    PhaseInfo,
    State,
    TurnValidationError,
    VariantData,
    new_rng_record,
    plain_copy,
    rng,
)

ALIASES = {"kings_storehouse": "storehouse", "king's_storehouse": "storehouse", "workshop": "workhouse",
           "town_centre": "town_center", "mine": "mines", "blackmarket": "black_market"}
FIELDS: dict[str, set[str]] = {
    "mines": {"take"}, "quarry": set(), "forest": set(), "silversmith": set(), "tax_stand": set(),
    "guardhouse": {"actions"}, "storehouse": {"trades"}, "town_center": {"captures"},
    "workhouse": {"hire", "draw", "discard_apprentice"},
    "black_market": {"slot", "hire", "draw", "discard_apprentice"},
    "guildhall": {"build", "cathedral", "pay", "discard", "take", "hire", "captures", "release", "then",
                  "discard_apprentice"},
}
DEFAULT_RULES: dict[str, Any] = {
    "artisans_official": False, "star_cards": True, "starting_hand": 3, "hand_limit": 6,
    "apprentice_limit": 5, "workers": 20, "start_virtue": 7, "silver_by_seat": [3, 4, 5, 6, 7],
    "tax_stand_start": 4, "display_columns": 4,
}


class AgeOfArtisans:
    name = "age-of-artisans"
    # The field names its choices use: a mailed line with one of these keys is
    # the player's choice, never a misspelt password (Ambition's `secret: true`).
    choice_keys = frozenset({"actions", "apprentice", "build", "captures", "cathedral", "discard",
                             "discard_apprentice", "draw", "get", "hire", "id", "keep", "location", "pay", "place",
                             "player", "recall", "release", "slot", "take", "then", "trades"})
    title = "Age of Artisans"
    min_players = 2
    max_players = 5

    def __init__(self) -> None:
        self.variant_data = VariantData(self.name)
        self._file_data: dict[str, Any] | None = None

    def _data(self, data: dict[str, Any] | None) -> dict[str, Any]:
        """Card data: the given data when it holds the cards, else the installed
        file's, read once (the engine only reads it)."""
        if data and "buildings" in data:
            return data
        if self._file_data is None:
            self._file_data = self.variant_data.installed()
        return self._file_data

    # ---- setup -------------------------------------------------------------
    def setup(self, players: list[str], seed: int, data: dict[str, Any]) -> State:
        data = self._data(data)
        rules = dict(DEFAULT_RULES)
        rules.update({k: v for k, v in (data.get("rules") or {}).items() if k != "source"})
        state: State = {"game": self.name, "rules": rules, "rng": new_rng_record(seed)}
        sets = {"base", "star"} if rules["star_cards"] else {"base"}
        first = rng(state).randrange(len(players))
        order = players[first:] + players[:first]   # random first player, then clockwise
        state["order"] = order
        state["players"] = {}
        for seat, name in enumerate(order):
            state["players"][name] = {
                "seat": seat + 1, **{k: 0 for k in RESOURCES},
                "virtue": int(rules["start_virtue"]), "debts_unpaid": 0, "debts_paid": 0, "debts_destroyed": 0,
                "supply": int(rules["workers"]), "prison": 0, "captured": {},
                "apprentices": [], "hand": [], "buildings": [], "cathedral": 0,
            }
            state["players"][name]["silver"] = int(rules["silver_by_seat"][seat])
        bdeck = sorted(i for i, b in buildings(data).items() if b["set"] in sets)
        rng(state).shuffle(bdeck)
        adeck = sorted(i for i, a in apprentices(data).items() if a["set"] in sets)
        rng(state).shuffle(adeck)
        mdeck = sorted(int(c["id"]) for c in data["black_market"]["cards"])
        rng(state).shuffle(mdeck)
        rewards = sorted(int(r["id"]) for r in data["rewards"]["cards"])
        rng(state).shuffle(rewards)
        cols = int(rules["display_columns"])
        state.update({
            "board": {loc: {} for loc in board.OPEN_LOCATIONS},
            "black_market": {s: None for s in market.SLOTS},
            "market_deck": mdeck, "market_pos": 0, "resets": 0,
            "guildhall": [], "tax_stand": int(rules["tax_stand_start"]),
            "display": [adeck[0:cols], adeck[cols:2 * cols]], "display_silver": [[0] * cols, [0] * cols],
            "apprentice_deck": adeck[2 * cols:], "apprentice_discard": [],
            "building_deck": bdeck, "rewards": rewards[:2 * len(players) + 1],
            "stage": "draft", "draft_left": list(reversed(order)), "current": order[-1],
            "turn": 1, "final_left": None, "final_started": False, "pending": None, "scores": None,
        })
        for name in order:
            hand = state["building_deck"][:int(rules["starting_hand"])]
            del state["building_deck"][:int(rules["starting_hand"])]
            state["players"][name]["hand"] = hand
        return state

    # ---- phases ------------------------------------------------------------
    def phase(self, state: State) -> PhaseInfo | None:
        if state["stage"] == "over":
            return None
        if state["stage"] == "draft":
            who = state["draft_left"][0]
            return PhaseInfo(f"draft-{who}", "sequential", [who], f"Starting apprentice draft: {who}")
        pending = state.get("pending")
        who = pending["player"] if pending else state["current"]
        slug = f"t{state['turn']:03d}-{who}" + (f"-{pending['kind']}" if pending else "")
        final = " (final round)" if state["final_left"] is not None and state["final_started"] else ""
        what = {"keep": "keep one building card", "discard": "discard down to the hand limit"}
        title = f"Turn {state['turn']}: {who}" + (f", {what[pending['kind']]}" if pending else "") + final
        return PhaseInfo(slug, "sequential", [who], title)

    def default_choice(self, state: State, player: str, data: dict[str, Any]) -> Choice | None:
        """A silent player takes the safest action, so the game never stalls."""
        if state["stage"] == "draft":
            first = next(c for row in state["display"] for c in row if c is not None)
            return {"hire": first}
        pending = state.get("pending")
        if pending and pending["kind"] == "keep":
            return {"keep": pending["options"][0]}
        if pending and pending["kind"] == "discard":
            return {"discard": state["players"][player]["hand"][-int(pending["count"]):]}
        me = state["players"][player]
        if me["supply"] == 0:
            spots = board.recallable(state, player)
            return {"recall": spots[0] if spots else "none"}
        return {"place": "silversmith"}

    # ---- turns -------------------------------------------------------------
    def _run(self, state: State, player: str, choice: Any, data: dict[str, Any]) -> Ctx:
        ctx = Ctx(state, data, player)
        if not isinstance(choice, dict):
            ctx.fail(player, "a choice is a mapping, e.g. {place: mines, take: clay}")
            return ctx
        if state["stage"] == "draft":
            self._draft(ctx, choice)
            return ctx
        pending = state.get("pending")
        if pending:
            self._pending(ctx, choice)
        elif ctx.me["supply"] == 0:
            if set(choice) != {"recall"}:
                ctx.fail("recall", "no workers in your supply: your turn is `recall: <location>` only")
            else:
                board.recall(ctx, choice["recall"])
        else:
            self._place(ctx, choice)
        if not ctx.errors and not state.get("pending"):
            self._end_turn(ctx)
        return ctx

    def _draft(self, ctx: Ctx, choice: Choice) -> None:
        extra = extra_keys(choice, {"hire"})
        if extra:
            ctx.fail(extra[0], "the draft only takes `hire: <apprentice id>`")
        if take_from_display(ctx, choice.get("hire"), "hire", choice, "starting draft, free", slide=False) is None:
            return
        ctx.state["draft_left"].pop(0)
        if not ctx.state["draft_left"]:
            fill_gaps(ctx.state)   # refilled where they are, without sliding
            ctx.state["stage"] = "play"
            ctx.state["current"] = ctx.state["order"][0]
            ctx.say(f"the draft is over; {ctx.state['order'][0]} plays first")
        else:
            ctx.state["current"] = ctx.state["draft_left"][0]

    def _pending(self, ctx: Ctx, choice: Choice) -> None:
        pending = ctx.state["pending"]
        key = pending["kind"]
        if set(choice) != {key}:
            ctx.fail(key, f"this phase only takes `{key}:`")
            return
        if key == "keep":
            market.keep(ctx, choice)
            return
        cards = choice["discard"]
        ids = [as_int(c) for c in cards] if isinstance(cards, list) else []
        hand = list(ctx.me["hand"])
        ok = len(ids) == int(pending["count"])
        for cid in ids:
            if cid in hand:
                hand.remove(cid)
            else:
                ok = False
        if not ok:
            ctx.fail("discard", f"name exactly {plural(int(pending['count']), 'card id')} from your hand")
            return
        ctx.me["hand"] = hand
        ctx.state["building_deck"].extend(i for i in ids if i is not None)
        ctx.state["pending"] = None
        ctx.say(f"{ctx.player} discards {plural(len(ids), 'building card')} to the hand limit")

    def _place(self, ctx: Ctx, choice: Choice) -> None:
        if "place" not in choice and "recall" in choice:
            ctx.fail("recall", f"you still have {plural(ctx.me['supply'], 'worker')} in your supply: recall only "
                               "when it is empty; place one instead, e.g. {place: forest}")
            return
        place = ALIASES.get(str(choice.get("place")), choice.get("place"))
        # isinstance first: a list or mapping as the location cannot be looked up
        if not isinstance(place, str) or place not in FIELDS:
            ctx.fail("place", f"unknown location {choice.get('place')!r}: name one of {', '.join(FIELDS)}")
            return
        for key in extra_keys(choice, FIELDS[place] | {"place"}):
            ctx.fail(key, f"not used at {place}")
        ctx.me["supply"] -= 1
        if place == "black_market":
            market.black_market(ctx, choice)
        elif place == "guildhall":
            guildhall.guildhall(ctx, choice)
        else:
            ctx.state["board"][place][ctx.player] = ctx.state["board"][place].get(ctx.player, 0) + 1
            ctx.say(f"{ctx.player} places a worker at {place} ({ctx.state['board'][place][ctx.player]} there)")
            handler = {"mines": board.mines, "guardhouse": board.guardhouse, "storehouse": board.storehouse,
                       "workhouse": board.workhouse, "tax_stand": board.tax_stand,
                       "town_center": board.town_center}.get(place)
            if handler:
                handler(ctx, choice)
            else:
                extra = 1 if place == "silversmith" else 0
                res = {"quarry": "stone", "forest": "wood", "silversmith": "silver"}[place]
                board.simple_location(ctx, place, res, extra)

    def _end_turn(self, ctx: Ctx) -> None:
        state = ctx.state
        if state["stage"] != "play":
            return
        limit = int(state["rules"]["hand_limit"])
        over = len(ctx.me["hand"]) - limit
        if over > 0:
            state["pending"] = {"player": ctx.player, "kind": "discard", "count": over}
            return
        if state["final_left"] is not None:
            if state["final_started"]:
                state["final_left"].pop(0)
            state["final_started"] = True
            if not state["final_left"]:
                state["stage"] = "over"
                state["current"] = None
                state["scores"] = scoring.score(ctx)
                ctx.say("the game is over")
                return
            state["current"] = state["final_left"][0]
        else:
            order = state["order"]
            state["current"] = order[(order.index(ctx.player) + 1) % len(order)]
        state["turn"] += 1

    def validate(self, state: State, turn: dict[str, Choice], data: dict[str, Any]) -> list[ChoiceError]:
        data = self._data(data)
        errors: list[ChoiceError] = []
        info = self.phase(state)
        for player, choice in turn.items():
            if info is None or player not in info.waiting_for:
                errors.append(ChoiceError(player, player, "not your turn"
                                          + (f": waiting for {', '.join(info.waiting_for)}" if info else "")))
                continue
            errors += self._run(plain_copy(state), player, choice, data).errors
        return errors

    def apply(self, state: State, turn: dict[str, Choice], data: dict[str, Any]) -> Outcome:
        data = self._data(data)
        errors = self.validate(state, turn, data)
        if errors:
            raise TurnValidationError(errors)
        events: list[Event] = []
        for player, choice in turn.items():
            ctx = self._run(state, player, choice, data)
            events += ctx.events
        return Outcome(state, events)

    def public_view(self, state: State, data: dict[str, Any] | None = None) -> dict[str, Any]:
        return views.public_view(state, self._data(data))

    def private_view(self, state: State, player: str, data: dict[str, Any] | None = None) -> dict[str, Any]:
        return views.private_view(state, self._data(data), player)


GAME = AgeOfArtisans()
