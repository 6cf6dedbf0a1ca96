"""Reading a state: bounded (sitemill.state.jsondecode), and trusting none of what it remembers."""
# A state or previous state is input from outside: a live site's copy is whatever answers at the
# base URL. A remembered lastmod is used only if it is a W3C datetime in the forms sitemill writes,
# not after the run's time and not before the web began; fingerprints and ETags are short printable
# strings; output names are sitemill's own. Whatever fails is dropped (the page gets its plain date,
# or is read again) and counted, for one warning.

from __future__ import annotations

import logging
import re
from collections.abc import Iterator, Mapping
from datetime import UTC, datetime
from typing import Any, Final

from sitemill.errors import StateError
from sitemill.filenames.groupnames import child_group
from sitemill.filenames.outputs import STATE_NAME, is_own_name
from sitemill.filenames.pagenames import is_page_name
from sitemill.html.facts import FACTS_VERSION
from sitemill.lastmod.decide import latest_evidence
from sitemill.lastmod.deploys.parts import PARTS_FORM
from sitemill.lastmod.fingerprint.resemblance import is_sketch
from sitemill.lastmod.fingerprint.versions import FINGERPRINT_VERSION, HTML_SUFFIXES
from sitemill.lastmod.history.seenrecord import seen_from_json
from sitemill.lastmod.proof import commits_from_json, proof_from_json
from sitemill.protocol import CLOCK_SKEW as CLOCK_SKEW
from sitemill.protocol import OLDEST_LASTMOD as OLDEST_LASTMOD
from sitemill.protocol import kept_base_url
from sitemill.protocol import trusted_lastmod as trusted_lastmod
from sitemill.shards.evolve import plan_from_json
from sitemill.shards.plan import Plan
from sitemill.state._facts import Unlisted, facts_from_json, unlisted_from_json
from sitemill.state.jsondecode import load_state_json
from sitemill.state.llmsfiles import llms_from_json, llms_source_from_json
from sitemill.state.model import (
    MAX_BLOBS,
    MAX_OUTPUTS,
    STATE_FORMAT,
    STATE_VERSION,
    PageRecord,
    State,
    user_sitemaps_from_json,
)
from sitemill.state.pending import changes_from_json, pending_from_json
from sitemill.state.removedurls import removed_from_json
from sitemill.urlstyle import StyleDecision

log = logging.getLogger(__name__)

# An ETag or a fingerprint sitemill keeps is short printable ASCII ("9b2c…", "version:…").
_TOKEN: Final = re.compile(r"[\x20-\x7e]{1,1100}")
_HEX32: Final = re.compile(r"[0-9a-f]{32}")
# SHA-1 or SHA-256 ids; an HTML page's with a hash of its path (history.walk.blob_key)
_BLOB: Final = re.compile(
    r"b(?:[0-9a-f]{40}|[0-9a-f]{64})|h(?:[0-9a-f]{40}|[0-9a-f]{64})(?:-[0-9a-f]{8})?"
    r"|e(?:[0-9a-f]{80}|[0-9a-f]{128})-[0-9a-f]{8}"  # (an edit: history.edits.edit_key)
)


def parse_state(data: bytes, now: datetime | None = None) -> State:
    """The state in ``data`` (gzip-compressed JSON); a StateError names what is wrong with
    the whole, and what is wrong in a record is dropped and counted (``State.refused``).
    ``now`` is the run's time (default: the clock): no remembered date may be later."""
    return state_from_document(load_state_json(data), now)


def state_from_document(document: object, now: datetime | None = None) -> State:
    """``parse_state`` of a document already read (one a shard state holds)."""
    if not isinstance(document, dict) or document.get("format") != STATE_FORMAT:
        raise StateError("not a sitemill state (no format marker)")
    version = document.get("version")
    if not isinstance(version, int) or version > STATE_VERSION:
        raise StateError(f"written by a newer sitemill (format version {version!r})")
    pages = document.get("pages")
    if not isinstance(pages, dict):
        raise StateError("its pages are not a table")
    # Facts read by another sitemill are read again (one pass); the dates are kept.
    facts_current = document.get("facts_version") == FACTS_VERSION
    state = State(outputs=_outputs(document.get("outputs")))
    state.digests = _digests(document.get("digests"), state.outputs)
    # Fingerprints of a version this sitemill computes (the current one, the previous one)
    # are compared; of another (State.outdated), only those of files that are not HTML, a
    # hash of their bytes (or their ETag) in every version, are kept.
    version = document.get("fingerprint_version")
    state.fingerprint_version = version if type(version) is int and version > 0 else 0
    fingerprints_current = not state.outdated
    if fingerprints_current:
        state.fingerprint_main = document.get("fingerprint_scope") != "body"
    latest = latest_evidence(now or datetime.now(UTC))  # (sitemill.lastmod.decide)
    commits = commits_from_json(document.get("commits"), MAX_BLOBS)  # (lastmod.proof)
    records = _records(state, pages, facts_current, fingerprints_current, latest, commits)
    state.pages = dict(records)
    state.unlisted = _unlisted(document.get("unlisted")) if facts_current else {}
    state.blob_key, state.blobs = _blobs(document.get("blobs"))
    state.history = seen_from_json(document.get("history"), latest, MAX_BLOBS)
    state.plan = _plan(document.get("shards"))
    state.pending = pending_from_json(document.get("indexnow"))
    state.changes = changes_from_json(document.get("changes"), state.pages)
    state.removed = removed_from_json(document.get("removed"))
    state.url_style = StyleDecision.from_json(document.get("url_style"))
    state.base_url = kept_base_url(document.get("base_url"))
    state.written = _written(state, document.get("written"), latest)
    state.found_sitemaps, state.robots_sitemaps = user_sitemaps_from_json(document)
    state.llms = llms_from_json(document.get("llms"))
    state.llms_source = llms_source_from_json(document.get("llms_source"))
    return state


def _written(state: State, value: object, latest: datetime) -> dict[str, str] | None:
    """When each child the outputs name last changed (None: no record); a date that is not one
    sitemill writes, or after the run, is dropped and counted (its child takes the run's)."""
    if value is None:
        return None
    if not isinstance(value, dict) or len(value) > MAX_OUTPUTS:
        return {}
    kept: dict[str, str] = {}
    for name, date in value.items():
        if not trusted_lastmod(date, latest):
            _refuse(state, date)
        elif name in state.outputs:
            kept[name] = date
    return kept


def _plan(value: object) -> Plan | None:
    """The shard plan, checked (sitemill.shards.evolve); none when it is missing or wrong (the
    next build lays the canonical plan: children are renamed once)."""
    if value is None:
        return None
    try:
        return plan_from_json(value)
    except StateError as exc:
        log.warning("the state's shard plan is ignored: %s", exc)
        return None


def _records(
    state: State,
    pages: Mapping[str, Any],
    facts_current: bool,
    fingerprints_current: bool,
    latest: datetime,
    commits: tuple[str, ...],
) -> Iterator[tuple[str, PageRecord]]:
    for path, item in pages.items():
        if not is_page_name(path):
            state.strangers += 1
            state.stranger_example = state.stranger_example or _cut(path)
            continue  # (never a removed URL, never a path opened: dropped here, once)
        if not isinstance(item, dict):
            raise StateError(f"the record of {path[:80]!r} is not a table")
        lastmod = item.get("lastmod")
        if lastmod is not None and not trusted_lastmod(lastmod, latest):
            _refuse(state, lastmod)
            lastmod = None
        facts = item.get("facts")
        fingerprint = _token(item.get("fingerprint"))
        if not fingerprints_current and path.lower().endswith(HTML_SUFFIXES):
            fingerprint = None  # (compared only by the bytes: its ETag, its blob)
        yield (
            path,
            PageRecord(
                _token(item.get("etag")),
                facts_from_json(facts) if facts_current and isinstance(facts, dict) else None,
                fingerprint,
                lastmod,
                None if lastmod is None else proof_from_json(item.get("evidence"), commits),
                _parts(item.get("parts"), state.fingerprint_version),
                _sketch(item.get("sketch"), fingerprint),
            ),
        )


def _refuse(state: State, value: object) -> None:
    state.refused += 1
    if not state.refused_example:
        state.refused_example = _cut(value if isinstance(value, str) else repr(value))


def _cut(text: str) -> str:
    return text if len(text) <= 80 else text[:77] + "..."


def _sketch(value: object, fingerprint: str | None) -> str | None:
    """A record's resemblance sketch, checked, beside a fingerprint it was made with."""
    return value if fingerprint is not None and is_sketch(value) else None


def _parts(value: object, version: int) -> str | None:
    """A record's parts (lastmod.deploys.templateedits), of this fingerprint ``version`` only."""
    if version != FINGERPRINT_VERSION or not isinstance(value, str):
        return None
    return value if PARTS_FORM.fullmatch(value) else None


def _token(value: object) -> str | None:
    return value if isinstance(value, str) and _TOKEN.fullmatch(value) else None


def _unlisted(value: object) -> dict[str, Unlisted]:
    if not isinstance(value, dict):
        return {}
    found = {etag: unlisted_from_json(item) for etag, item in value.items() if _token(etag)}
    return {etag: item for etag, item in found.items() if item is not None}


def _blobs(value: object) -> tuple[str, dict[str, str]]:
    """The blob fingerprints and their key; none unless every entry is well formed."""
    if not isinstance(value, dict):
        return "", {}
    key, table = value.get("key"), value.get("fingerprints")
    if not isinstance(key, str) or not _HEX32.fullmatch(key) or not isinstance(table, dict):
        return "", {}
    if len(table) > MAX_BLOBS or not all(
        isinstance(fingerprint, str) and _BLOB.fullmatch(blob) and _HEX32.fullmatch(fingerprint)
        for blob, fingerprint in table.items()
    ):
        return "", {}
    return key, table


def _outputs(value: object) -> frozenset[str]:
    """sitemill's own file names from their list (a named group's children among them:
    sitemill.filenames.groupnames); anything else in it is dropped (a state is input from
    outside: it never names a page or another file for sitemill to delete)."""
    if not isinstance(value, list) or len(value) > MAX_OUTPUTS:
        return frozenset()
    return frozenset(
        name
        for name in value
        if isinstance(name, str)
        and name != STATE_NAME
        and (is_own_name(name) or child_group(name) is not None)
    )


def _digests(value: object, outputs: frozenset[str]) -> dict[str, str]:
    """The MD5 of each of sitemill's files the outputs name; none unless every entry is well
    formed (a state is input from outside: a wrong one only costs a rebuild)."""
    if not isinstance(value, dict) or len(value) > MAX_OUTPUTS:
        return {}
    if not all(
        name in outputs and isinstance(digest, str) and _HEX32.fullmatch(digest)
        for name, digest in value.items()
    ):
        return {}
    return dict(value)
