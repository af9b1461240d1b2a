"""Kruijswijk's guess-and-check resolution ("The Math of Adjudication",
chapter 6). This module is bookkeeping only: it knows no rules. The rules come
in as `adjudicate(key, resolution)`, and true cycles (zero or two consistent
outcomes) go to an injected backup rule.

A decision is a plain function. It reads the decisions it needs through
`resolution(other)`, as the recursive algorithm calls resolve(other), and
returns its own. When `other` is not decided yet, `resolution` raises
Unresolved instead of recursing: the resolver puts `other` on a stack of its
own, decides it, and runs the asking decision again from the start. So
nothing recurses on the Python stack, and a ring of 100,000 moves is resolved
as easily as a ring of three.

Running a decision again is sound because a decision reads nothing but the
resolutions it is given: it is a function of them (guessing relies on that
too). It is cheap because it is rare: most decisions need nothing that is not
already resolved. `resolve` runs a decision bare first, reading resolved
decisions alone, and starts the bookkeeping only for one that asks for more.
A plain call costs an eighth of a generator's making and ending."""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Generic, TypeVar, cast

K = TypeVar("K", bound=Hashable)

# Reads another decision's resolution, by key; raises Unresolved if it has none yet.
Resolution = Callable[[K], bool]

# A decision: its key and a reader of other resolutions in, its own resolution out.
Adjudicate = Callable[[K, Resolution[K]], bool]

# Given the keys of a cycle, return the resolutions to force; the other keys
# of the cycle are resolved again afterwards.
BackupRule = Callable[[list[K]], dict[K, bool]]


class Unresolved(Exception):
    """A decision asked for `key`, which is neither resolved nor guessed: the
    resolver decides it first, then runs the asking decision again."""

    def __init__(self, key: Hashable) -> None:
        super().__init__(key)
        self.key = key


class Frame(Generic[K]):
    """A decision under way, as a frame of the recursive algorithm: where
    the dependency list and the count of guess reads stood when it started,
    and its result under the guess False once that run is done."""

    __slots__ = ("first", "key", "mark", "reads")

    def __init__(self, key: K, mark: int, reads: int) -> None:
        self.key = key
        self.mark = mark
        self.reads = reads
        self.first: bool | None = None


class Resolver(Generic[K]):
    def __init__(self, adjudicate: Adjudicate[K], backup_rule: BackupRule[K]) -> None:
        self.adjudicate = adjudicate
        self.backup_rule = backup_rule
        # A key is resolved, guessed, or neither (unresolved); never both.
        self.resolved: dict[K, bool] = {}
        self.guesses: dict[K, bool] = {}
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
        resolved = self.resolved
        if key in resolved:
            return resolved[key]
        if key in self.guesses:
            return self._read(key)      # re-entered: answered with the guess
        # The bare run: a KeyError means the decision asked for a key that is
        # not resolved (resolved's own reader raised it), so the bookkeeping
        # decides it. A KeyError from a fault in the decision comes back
        # there, from the run that reads through _read.
        try:
            value = self.adjudicate(key, resolved.__getitem__)
        except KeyError:
            return self._evaluate(key)
        resolved[key] = value
        return value

    def _evaluate(self, key: K) -> bool:
        """Guess-and-check for `key`. The stack holds the decisions under way,
        in the depth-first order of the recursive algorithm; the top one runs,
        and either needs an unresolved key (its frame goes on top) or ends."""
        stack = [self._start(key)]
        while True:
            frame = stack[-1]
            try:
                value = self.adjudicate(frame.key, self._read)
            except Unresolved as need:
                stack.append(self._start(cast(K, need.key)))
                continue
            answer = self._conclude(frame, value)
            if answer is None:
                continue        # run it again: under the other guess, or afresh after a backup rule
            stack.pop()
            if not stack:
                return answer

    def _read(self, key: K) -> bool:
        """The reader under the bookkeeping: the resolution, else the current
        guess (remembering that someone used it), else Unresolved."""
        resolved = self.resolved
        if key in resolved:
            return resolved[key]
        guess = self.guesses.get(key)
        if guess is None:
            raise Unresolved(key)
        self._depend_on(key)
        self.guess_reads += 1
        return guess

    def _start(self, key: K) -> Frame[K]:
        self.guesses[key] = False
        return Frame(key, len(self.dependencies), self.guess_reads)

    def _conclude(self, frame: Frame[K], value: bool) -> bool | None:
        """What a finished run of `frame`'s decision settles: its answer, or
        None if the decision must run again."""
        key, mark = frame.key, frame.mark
        if frame.first is None:             # the run under the guess False
            if self.guess_reads == frame.reads:
                # No guess was used: the result stands (unless a backup rule already set it).
                if key not in self.resolved:
                    self._settle(key, value)
                return self.resolved[key]
            if len(self.dependencies) == mark or self.dependencies[mark] != key:
                # Depends on someone else's guess: stay a guess until that one settles.
                self._depend_on(key)
                # (If a backup rule resolved it meanwhile, it keeps this value
                # as resolved, as the recursive algorithm's one table does.)
                if key in self.resolved:
                    self.resolved[key] = value
                else:
                    self.guesses[key] = value
                return value
            # Our own guess mattered: try the opposite guess.
            self._forget(mark)
            self.guesses[key] = True
            frame.first = value
            return None
        if frame.first == value:
            self._forget(mark)
            self._settle(key, value)
            return value
        # Both or neither guess is consistent: a true cycle or paradox.
        cycle = list(self.dependencies[mark:])
        if key not in cycle:
            cycle.insert(0, key)
        self._forget(mark)
        for k in cycle:
            self._unresolve(k)
        for k, forced in self.backup_rule(cycle).items():
            self._settle(k, forced)
        # Ask again: resolved by the backup rule, or decided afresh.
        if key in self.resolved:
            return self.resolved[key]
        self.guesses[key] = False
        frame.mark, frame.reads, frame.first = len(self.dependencies), self.guess_reads, None
        return None

    def _settle(self, key: K, value: bool) -> None:
        self.resolved[key] = value
        self.guesses.pop(key, None)

    def _unresolve(self, key: K) -> None:
        self.resolved.pop(key, None)
        self.guesses.pop(key, None)

    def _depend_on(self, key: K) -> None:
        if key not in self._depends:
            self._depends.add(key)
            self.dependencies.append(key)

    def _forget(self, mark: int) -> None:
        for k in self.dependencies[mark:]:
            self._unresolve(k)
            self._depends.discard(k)
        del self.dependencies[mark:]
