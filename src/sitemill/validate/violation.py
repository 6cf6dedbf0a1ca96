"""The one result type of validation: a broken rule with its file, line and severity."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum

from sitemill.errors import SitemillError


class DocumentStop(SitemillError):
    """Raised inside `validate`'s readers when a document cannot be checked further (a limit,
    an unknown encoding); reported as one violation at ``line``, never to the user as such."""

    def __init__(self, line: int | None, message: str) -> None:
        super().__init__(message)
        self.line = line
        self.message = message


class Severity(Enum):
    """Errors fail validation (exit 1); warnings and notes are reported and pass (exit 0).
    A note breaks no rule: it says what validation could not check (a child of sitemill's
    own index that another app serves, sitemill.validate.ownindex)."""

    ERROR = "error"
    WARNING = "warning"
    NOTE = "note"


@dataclass(frozen=True, slots=True)
class Violation:
    """One broken rule, located as precisely as the input allows."""

    file: str
    line: int | None
    message: str
    severity: Severity = Severity.ERROR

    @property
    def is_error(self) -> bool:
        return self.severity is Severity.ERROR

    def __str__(self) -> str:
        where = self.file if self.line is None else f"{self.file}:{self.line}"
        mark = "" if self.is_error else f"{self.severity.value}: "
        return f"{where}: {mark}{self.message}"


def warning(file: str, line: int | None, message: str) -> Violation:
    """A finding that consumers tolerate: reported, but it does not fail validation."""
    return Violation(file, line, message, Severity.WARNING)


def note(file: str, line: int | None, message: str) -> Violation:
    """What validation could not check, and why that is no fault: reported, never failing."""
    return Violation(file, line, message, Severity.NOTE)


def tally(violations: Iterable[Violation]) -> str:
    """How many warnings and notes: "2 warnings and 1 note" ("" for none)."""
    counts = Counter(violation.severity for violation in violations)
    kinds = (Severity.WARNING, Severity.NOTE)
    said = [f"{n} {kind.value}{'s' if n != 1 else ''}" for kind in kinds if (n := counts[kind])]
    return " and ".join(said)
