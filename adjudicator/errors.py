"""Error types. Each carries where the problem is (file, line) and, where we
can guess, how to fix it. The CLI turns every AdjudicatorError into one line
on stderr and exit code 2."""

from __future__ import annotations


class AdjudicatorError(Exception):
    """Base of every error a user can cause with bad input."""

    def __init__(self, message: str, *, file: str | None = None, line: int | None = None,
                 hint: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.file = file
        self.line = line
        self.hint = hint

    def located(self, file: str | None = None) -> AdjudicatorError:
        """Fill in the file name if the raiser did not know it."""
        if self.file is None and file is not None:
            self.file = file
        return self

    def __str__(self) -> str:
        where = ""
        if self.file:
            where = self.file + (f":{self.line}" if self.line else "") + ": "
        elif self.line:
            where = f"line {self.line}: "
        text = where + self.message
        if self.hint:
            text += f" ({self.hint})"
        return text


class DataFileError(AdjudicatorError):
    """A YAML data file (map, variant, state, game, turn file) is unreadable or wrong."""


class MapDataError(DataFileError):
    """A map YAML file breaks an invariant (asymmetric edge, unknown name...)."""


class GameFolderError(AdjudicatorError):
    """The game folder is missing, incomplete, or asked to do something twice."""


class OrderError(AdjudicatorError):
    """Base of the three kinds of order error."""


class OrderSyntaxError(OrderError):
    """Cannot read: the text is not an order."""


class IllegalOrderError(OrderError):
    """Cannot do: the order reads fine but breaks the rules or names a wrong unit."""


class AmbiguousOrderError(OrderError):
    """Cannot tell: the text matches more than one thing."""
