"""A stamp edit read by substitution (the tests' reference): history.stamps' first form, kept
here as the judge CommitStamps.is_stamp_edit and stamp_pattern's spellings are held against."""

from __future__ import annotations

import re

from sitemill.lastmod.history._commonends import differing

PLACEHOLDER = "\x00"


def is_stamp_edit(
    newer: str, older: str, newer_stamps: re.Pattern[str] | None, older_stamps: re.Pattern[str]
) -> bool:
    """Whether reduction ``older`` became ``newer`` by taking out stamps of the older commit
    (``older_stamps``) and putting in stamps of the newer one, and nothing else: each stamp
    replaced by one placeholder, the two texts then equal (a stamp put in where none stood is
    not one here: CommitStamps.is_stamp_edit reads it, dating rules 5)."""
    if newer_stamps is None or newer == older:
        return False
    newer, older = differing(newer, older)
    unstamped = newer_stamps.sub(PLACEHOLDER, newer)
    return unstamped == older_stamps.sub(PLACEHOLDER, older) and PLACEHOLDER in unstamped
