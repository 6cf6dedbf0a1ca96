"""The one result type of validation: a broken rule with its file, line and severity."""

from __future__ import annotations

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
    """Errors fail validation (exit 1); warnings are reported and pass (exit 0)."""

    ERROR = "error"
    WARNING = "warning"


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
        mark = "" if self.is_error else "warning: "
        return f"{where}: {mark}{self.message}"


def warning(file: str, line: int | None, message: str) -> Violation:
    """A finding that consumers tolerate: reported, but it does not fail validation."""
    return Violation(file, line, message, Severity.WARNING)
