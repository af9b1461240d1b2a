"""Kruijswijk's guess-and-check resolution ("The Math of Adjudication",
chapter 6). This module is bookkeeping only: it knows no rules. The rules come
in as `adjudicate(key)`, and true cycles (zero or two consistent outcomes) go
to an injected backup rule.

A decision is a generator: it yields the key of each decision it needs, is
sent that decision's resolution, and returns its own. So the rules read like
the recursive algorithm (`succeeds = yield other`), but nothing recurses on
the Python stack: `resolve` drives the decisions with a stack of its own, and
a ring of 100,000 moves is resolved as easily as a ring of three.

A decision reads nothing but the resolutions it is sent (guessing runs it
again anyway), so `resolve` may first run a decision bare: most need no decision
that is not already resolved, and are settled without the bookkeeping; one
that asks for an unresolved decision is started again under it."""

from __future__ import annotations

from collections.abc import Callable, Generator, Hashable
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)

UNRESOLVED, GUESSING, RESOLVED = 0, 1, 2

# Yields the keys it needs, is sent their resolutions, returns its own.
Decision = Generator[K, bool, bool]

# Given the keys of a cycle, return the resolutions to force; the other keys
# of the cycle are resolved again afterwards.
BackupRule = Callable[[list[K]], dict[K, bool]]


class Resolver(Generic[K]):
    def __init__(self, adjudicate: Callable[[K], Decision[K]], backup_rule: BackupRule[K]) -> None:
        self.adjudicate = adjudicate
        self.backup_rule = backup_rule
        self.status: dict[K, int] = {}
        self.result: dict[K, bool] = {}
        # The guesses read since they were made, in order, and as a set for
        # membership: a ring of n moves puts all n on the list.
        self.dependencies: list[K] = []
        self._depends: set[K] = set()
        # Counts every answer given from a guess. A result that read a guess
        # already on the dependency list adds nothing to the list, so the list
        # alone cannot tell that the result depended on a guess.
        self.guess_reads = 0

    def resolve(self, key: K) -> bool:
        """The resolution of `key`, resolving whatever it depends on first."""
        status = self.status.get(key)
        if status == RESOLVED:
            return self.result[key]     # the common case, without a call
        if status == GUESSING:
            return bool(self._known(key))   # re-entered: answered with the guess
        # Most decisions need no other: run it bare, and only if it asks for
        # something start it again under the bookkeeping (see the module's doc).
        decision = self.adjudicate(key)
        statuses, result = self.status, self.result
        try:
            needed = next(decision)
            # Resolved answers are final, so the bare run may be sent them.
            while statuses.get(needed) == RESOLVED:
                needed = decision.send(result[needed])
        except StopIteration as done:
            result[key], statuses[key] = done.value, RESOLVED
            return bool(done.value)
        decision.close()
        return self.evaluate(self._decide(key))

    def evaluate(self, decision: Decision[K]) -> bool:
        """Run a decision to its end. Each key it yields is answered at once if
        resolved or guessed, or else its own decision goes on the stack and
        runs first: the depth-first order of the recursive algorithm."""
        stack = [decision]
        answer: bool | None = None      # None: the top of the stack has not started yet
        while True:
            top = stack[-1]
            try:
                needed = next(top) if answer is None else top.send(answer)
            except StopIteration as done:
                stack.pop()
                answer = bool(done.value)
                if not stack:
                    return answer
                continue
            if self.status.get(needed) == RESOLVED:
                answer = self.result[needed]        # the common case, without a call
                continue
            answer = self._known(needed)
            if answer is None:
                stack.append(self._decide(needed))

    def _known(self, key: K) -> bool | None:
        """The resolution or the current guess, or None if `key` is unresolved."""
        status = self.status.get(key, UNRESOLVED)
        if status == RESOLVED:
            return self.result[key]
        if status == GUESSING:
            # Re-entered: answer with the guess and remember that someone used it.
            self._depend_on(key)
            self.guess_reads += 1
            return self.result[key]
        return None

    def _decide(self, key: K) -> Decision[K]:
        mark = len(self.dependencies)
        reads = self.guess_reads
        self.result[key], self.status[key] = False, GUESSING
        first = yield from self.adjudicate(key)
        if self.guess_reads == reads:
            # No guess was used: the result stands (unless a backup rule already set it).
            if self.status[key] != RESOLVED:
                self.result[key], self.status[key] = first, RESOLVED
            return self.result[key]
        if len(self.dependencies) == mark or self.dependencies[mark] != key:
            # Depends on someone else's guess: stay a guess until that one settles.
            self._depend_on(key)
            self.result[key] = first
            return first
        # Our own guess mattered: try the opposite guess.
        self._forget(mark)
        self.result[key], self.status[key] = True, GUESSING
        second = yield from self.adjudicate(key)
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
        # Ask again: resolved by the backup rule, or decided afresh.
        return (yield key)

    def _depend_on(self, key: K) -> None:
        if key not in self._depends:
            self._depends.add(key)
            self.dependencies.append(key)

    def _forget(self, mark: int) -> None:
        for k in self.dependencies[mark:]:
            self.status[k] = UNRESOLVED
            self._depends.discard(k)
        del self.dependencies[mark:]
