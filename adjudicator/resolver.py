"""Kruijswijk's guess-and-check resolution ("The Math of Adjudication",
chapter 6). This module is bookkeeping only: it knows no rules. The rules come
in as `adjudicate(key) -> bool`, and true cycles (zero or two consistent
outcomes) go to an injected backup rule."""

from __future__ import annotations

from typing import Callable, Generic, Hashable, TypeVar

K = TypeVar("K", bound=Hashable)

UNRESOLVED, GUESSING, RESOLVED = 0, 1, 2

# Given the keys of a cycle, return the resolutions to force; the other keys
# of the cycle are resolved again afterwards.
BackupRule = Callable[[list[K]], dict[K, bool]]


class Resolver(Generic[K]):
    def __init__(self, adjudicate: Callable[[K], bool], backup_rule: "BackupRule[K]") -> None:
        self.adjudicate = adjudicate
        self.backup_rule = backup_rule
        self.status: dict[K, int] = {}
        self.result: dict[K, bool] = {}
        self.dependencies: list[K] = []
        # Counts every answer given from a guess. A result that read a guess
        # already on the dependency list adds nothing to the list, so the list
        # alone cannot tell that the result depended on a guess.
        self.guess_reads = 0

    def resolve(self, key: K) -> bool:
        status = self.status.get(key, UNRESOLVED)
        if status == RESOLVED:
            return self.result[key]
        if status == GUESSING:
            # Re-entered: answer with the guess and remember that someone used it.
            if key not in self.dependencies:
                self.dependencies.append(key)
            self.guess_reads += 1
            return self.result[key]
        mark = len(self.dependencies)
        reads = self.guess_reads
        self.result[key], self.status[key] = False, GUESSING
        first = self.adjudicate(key)
        if self.guess_reads == reads:
            # No guess was used: the result stands (unless a backup rule already set it).
            if self.status[key] != RESOLVED:
                self.result[key], self.status[key] = first, RESOLVED
            return self.result[key]
        if len(self.dependencies) == mark or self.dependencies[mark] != key:
            # Depends on someone else's guess: stay a guess until that one settles.
            if key not in self.dependencies:
                self.dependencies.append(key)
            self.result[key] = first
            return first
        # Our own guess mattered: try the opposite guess.
        self._forget(mark)
        self.result[key], self.status[key] = True, GUESSING
        second = self.adjudicate(key)
        if first == second:
            self._forget(mark)
            self.result[key], self.status[key] = first, RESOLVED
            return first
        # Both or neither guess is consistent: a true cycle or paradox.
        cycle = list(self.dependencies[mark:])
        if key not in cycle:
            cycle.insert(0, key)
        self._forget(mark)
        for k in cycle:
            self.status[k] = UNRESOLVED
        for k, value in self.backup_rule(cycle).items():
            self.result[k], self.status[k] = value, RESOLVED
        return self.resolve(key)

    def _forget(self, mark: int) -> None:
        for k in self.dependencies[mark:]:
            self.status[k] = UNRESOLVED
        del self.dependencies[mark:]
