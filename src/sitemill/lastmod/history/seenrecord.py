"""A run's content dates as a state remembers them (history.seen), read and written."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Final

from sitemill.protocol import OLDEST_LASTMOD

_COMMIT: Final = re.compile(r"[0-9a-f]{40}|[0-9a-f]{64}")  # SHA-1 or SHA-256
_DIGEST: Final = re.compile(r"[0-9a-f]{64}")
# A file's content date and its last commit's, in hex seconds ("date" when they are one).
_DATES: Final = re.compile(r"([0-9a-f]{1,12})(?:\.([0-9a-f]{1,12}))?")


@dataclass(frozen=True, slots=True)
class SeenHistory:
    """The commit a run dated at, the digest of its other inputs, and each tracked file's
    content date and last commit time, in the order of the files' sorted paths."""

    seen: str
    inputs: str
    dates: tuple[tuple[int, int], ...]


def seen_to_json(record: SeenHistory) -> dict[str, Any]:
    dates = [f"{d:x}" if d == n else f"{d:x}.{n:x}" for d, n in record.dates]
    return {"seen": record.seen, "inputs": record.inputs, "dates": dates}


def seen_from_json(value: object, latest: datetime, most: int) -> SeenHistory | None:
    """The record in ``value``, or none unless every part is well formed and every date is
    one a remembered lastmod may be (OLDEST_LASTMOD to ``latest``, a file's content date no
    later than its last commit): a state is input from outside, and a wrong record only
    costs one walk through the history."""
    if not isinstance(value, dict):
        return None
    seen, inputs, listed = value.get("seen"), value.get("inputs"), value.get("dates")
    if not (isinstance(seen, str) and _COMMIT.fullmatch(seen)):
        return None
    if not (isinstance(inputs, str) and _DIGEST.fullmatch(inputs)):
        return None
    if not isinstance(listed, list) or len(listed) > most:
        return None
    oldest, newest_allowed = OLDEST_LASTMOD.timestamp(), latest.timestamp()
    dates = []
    for item in listed:
        found = _DATES.fullmatch(item) if isinstance(item, str) else None
        if found is None:
            return None
        date = int(found[1], 16)
        newest = date if found[2] is None else int(found[2], 16)
        if not oldest <= date <= newest <= newest_allowed:
            return None
        dates.append((date, newest))
    return SeenHistory(seen, inputs, tuple(dates))
