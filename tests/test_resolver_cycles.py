"""The resolver's bookkeeping on small decision systems, with no rules in
them: each decision is a function of the others, as the rule sets' are, and
the backup rule records the cycles it is given. A decision whose value rests
on a guess must never be kept as resolved before the guess settles, and
every cycle that neither guess breaks goes to the backup rule."""

from __future__ import annotations

from collections.abc import Callable

from adjudicator.diplomacy.resolver import Resolver

Decision = Callable[[Callable[[str], bool]], bool]


def resolve_all(decisions: dict[str, Decision], forced: list[dict[str, bool]]
                ) -> tuple[dict[str, bool], list[list[str]]]:
    """Every decision's resolution, and the cycles the backup rule was
    given; its n-th call forces forced[n]."""
    cycles: list[list[str]] = []

    def backup_rule(cycle: list[str]) -> dict[str, bool]:
        cycles.append(list(cycle))
        return forced[len(cycles) - 1]

    resolver: Resolver[str] = Resolver(lambda key, read: decisions[key](read), backup_rule)
    return {key: resolver.resolve(key) for key in decisions}, cycles


def test_a_decision_that_reads_a_guessed_one_is_not_kept_before_the_guess_settles() -> None:
    # k and y follow g, and g follows y: both guesses of g are consistent, a
    # cycle of all three. y is decided after k, from k alone; kept as
    # resolved under g's first guess, it would make g agree with itself.
    def g(read: Callable[[str], bool]) -> bool:
        read("k")
        return read("y")

    decisions: dict[str, Decision] = {"g": g, "k": lambda read: read("g"), "y": lambda read: read("k")}
    resolutions, cycles = resolve_all(decisions, [{"g": True}])
    assert cycles == [["g", "k", "y"]]
    assert resolutions == {"g": True, "k": True, "y": True}


def test_a_cycle_left_after_the_backup_rule_goes_to_it_again() -> None:
    # g and k form a cycle; the backup rule settles k alone, and g then
    # follows only itself: a cycle of its own, which the backup rule decides.
    def g(read: Callable[[str], bool]) -> bool:
        return read("g") if read("k") else read("k")

    decisions: dict[str, Decision] = {"g": g, "k": lambda read: read("g")}
    resolutions, cycles = resolve_all(decisions, [{"k": True}, {"g": False}])
    assert cycles == [["g", "k"], ["g"]]
    assert resolutions == {"g": False, "k": True}
