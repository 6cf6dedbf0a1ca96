"""A meta refresh's content as the HTML standard reads it: whether it is valid, and its URL."""

from __future__ import annotations

from sitemill.html.head import HTML_SPACE


def refresh_url(content: str) -> str | None:
    """The URL a meta refresh's ``content`` names, or None when it only reloads the page
    (or is not valid: see ``read_refresh``)."""
    return read_refresh(content)[1]


def read_refresh(content: str) -> tuple[bool, str | None]:
    """Whether a meta refresh's ``content`` is valid, and the URL it names (None: a reload).

    The HTML standard's "shared declarative refresh steps": a time, then an optional
    separator, ``url=`` and an optionally quoted URL. Only the first valid refresh of a
    page counts: an invalid one (no time) is ignored, as if it were not there.
    https://html.spec.whatwg.org/multipage/semantics.html#shared-declarative-refresh-steps
    """
    text = content.lstrip(HTML_SPACE)
    rest = text.lstrip("0123456789")
    if rest == text and not rest.startswith("."):
        return False, None  # no time: the steps stop, and the next refresh may count
    rest = rest.lstrip("0123456789.")
    if rest and rest[0] not in ";," + HTML_SPACE:
        return False, None
    rest = rest.lstrip(HTML_SPACE)
    if rest[:1] in (";", ","):
        rest = rest[1:].lstrip(HTML_SPACE)
    if rest[:3].lower() == "url":
        after = rest[3:].lstrip(HTML_SPACE)
        if after.startswith("="):  # else the URL is all the rest, "url" included
            rest = after[1:].lstrip(HTML_SPACE)
    if rest[:1] in ("'", '"'):
        quote, rest = rest[0], rest[1:]
        rest = rest.split(quote, 1)[0]
    url = rest.strip(HTML_SPACE)
    return True, url or None
