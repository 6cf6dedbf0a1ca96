"""Page facts in the state as JSON values, and back; what is kept of pages left out."""
# As JSON values: defaults left out, tuples as lists. What is remembered of a page the sitemaps
# leave out is keyed by its ETag, never its name.

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import fields, replace
from typing import Any, Final

from sitemill.entries import SkipReason
from sitemill.html.facts import PageFacts
from sitemill.html.title import MAX_LABEL_CHARS, MAX_TITLE_CHARS, clean_label, clean_title

# What the state remembers of an object the sitemaps leave out: the verdict its own bytes gave
# (noindex, a redirect, not a page: nothing of its facts, whose URLs may name other hidden
# pages), or, for a page left out by its canonical or as a duplicate, its facts.
Unlisted = PageFacts | SkipReason
VERDICTS: Final = frozenset({SkipReason.NOINDEX, SkipReason.REDIRECT, SkipReason.NOT_A_PAGE})
_VERDICT_NAMES: Final = {reason.value: reason for reason in VERDICTS}

_DEFAULT_FACTS: Final = PageFacts()
_FACT_FIELDS: Final = tuple(item.name for item in fields(PageFacts))


def facts_from_json(values: Mapping[str, Any]) -> PageFacts:
    """Facts from their table; a value of the wrong type is the default (read again later
    would be better, but the ETag still vouches for the bytes)."""
    known: dict[str, Any] = {}
    for name in _FACT_FIELDS:
        value = values.get(name)
        default = getattr(_DEFAULT_FACTS, name)
        if name == "alternates":
            known[name] = _pairs(value)
        elif name == "images":
            known[name] = _texts(value)
        elif name == "title":
            known[name] = _title(value)
        elif name in ("description", "site_name"):
            known[name] = _label(value)
        elif isinstance(default, bool):
            known[name] = value if isinstance(value, bool) else default
        else:
            known[name] = value if isinstance(value, str) else default
    return PageFacts(**known)


def _pairs(value: object) -> tuple[tuple[str, str], ...]:
    """Alternates from their list of [hreflang, href]; anything else is none."""
    if not isinstance(value, list):
        return ()
    return tuple(
        (item[0], item[1])
        for item in value
        if isinstance(item, list) and len(item) == 2 and all(isinstance(x, str) for x in item)
    )


def _texts(value: object) -> tuple[str, ...] | None:
    """Image sources from their list; anything else: not read (read again)."""
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        return None
    return tuple(value)


def _title(value: object) -> str | None:
    """A remembered title, tidied as a page's own is; one longer than sitemill keeps is no
    title it wrote: not read (read again when a title is needed)."""
    if not isinstance(value, str) or len(value) > MAX_TITLE_CHARS:
        return None
    return clean_title(value)


def _label(value: object) -> str | None:
    """A remembered description or site name, as _title (sitemill.html.title.clean_label)."""
    if not isinstance(value, str) or len(value) > MAX_LABEL_CHARS:
        return None
    return clean_label(value)


def without_titles(facts: PageFacts) -> PageFacts:
    """``facts`` without what people read of the page (its title, description, site name):
    kept only while something shows them, and never for a page the sitemaps leave out."""
    if facts.title is None and facts.description is None and facts.site_name is None:
        return facts
    return replace(facts, title=None, description=None, site_name=None)


def lacks_titles(facts: PageFacts) -> bool:
    """Remembered without its title or, by an earlier sitemill, its description."""
    return facts.title is None or facts.description is None or facts.site_name is None


def facts_to_json(facts: PageFacts) -> dict[str, Any]:
    """The facts that are not an ordinary page's (tuples as JSON lists)."""
    values: dict[str, Any] = {}
    for name in _FACT_FIELDS:
        value = getattr(facts, name)
        if value == getattr(_DEFAULT_FACTS, name):
            continue
        if isinstance(value, tuple):
            value = [list(item) if isinstance(item, tuple) else item for item in value]
        values[name] = value
    return values


def unlisted_to_json(item: Unlisted) -> dict[str, Any]:
    if isinstance(item, SkipReason):
        return {"left_out": item.value}
    return {"facts": facts_to_json(item)}


def unlisted_from_json(value: object) -> Unlisted | None:
    """The verdict or the facts; None for anything else (the object is read again)."""
    if not isinstance(value, dict):
        return None
    verdict = value.get("left_out")
    if isinstance(verdict, str):
        return _VERDICT_NAMES.get(verdict)
    facts = value.get("facts")
    return facts_from_json(facts) if isinstance(facts, dict) else None
