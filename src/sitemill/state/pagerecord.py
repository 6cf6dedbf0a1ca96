"""One page's record in the state: what one run learnt about it, and how the state writes it."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from sitemill.html.facts import PageFacts
from sitemill.lastmod.proof import Proof, proof_to_json
from sitemill.state._facts import facts_to_json


@dataclass(frozen=True, slots=True)
class PageRecord:
    """What one run learnt about one page: the version of its bytes (an S3 ETag), its head
    facts (None: not remembered), its content fingerprint, the lastmod it was given and that
    date's root evidence (``proof``; None: no date, or a state that recorded none); with
    content dates, what names its next edit in a bucket (``parts``: lastmod.deploys), and
    how nearly another page holds its text (``sketch``: lastmod.fingerprint.resemblance)."""

    version: str | None
    facts: PageFacts | None = None
    fingerprint: str | None = None
    lastmod: str | None = None
    proof: Proof | None = None
    parts: str | None = None
    sketch: str | None = None


def record_values(record: PageRecord, numbers: Mapping[str, int]) -> dict[str, Any]:
    """A page's record as the state writes it (``numbers``: each commit's place in the
    state's list of commits, which an evidence names)."""
    values: dict[str, Any] = {}
    if record.version is not None:
        values["etag"] = record.version
    if record.facts is not None:
        values["facts"] = facts_to_json(record.facts)
    if record.fingerprint is not None:
        values["fingerprint"] = record.fingerprint
    if record.parts is not None:
        values["parts"] = record.parts
    if record.sketch is not None:
        values["sketch"] = record.sketch
    if record.lastmod is not None:
        values["lastmod"] = record.lastmod
        if record.proof is not None:  # (a proof of no date says nothing)
            values["evidence"] = proof_to_json(record.proof, numbers)
    return values


def kept_sketch(record: PageRecord | None, fingerprint: str | None) -> str | None:
    """The sketch ``record`` keeps when its fingerprint is ``fingerprint``: the same content,
    not read again (a record of an earlier sitemill keeps none: the page gets one when read)."""
    if record is None or fingerprint is None or record.fingerprint != fingerprint:
        return None
    return record.sketch
