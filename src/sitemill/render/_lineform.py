"""How a compiled template writes an entry that has only a loc and a lastmod: its LineForm."""
# A compiled template (sitemill.render.compiled) writes such an entry as fixed text around its two
# fields, and escapes a few characters of the loc. Rendering a few probes finds that text and those
# escapes, and samples check that the form writes exactly what the template writes; a template that
# writes anything else has no form.

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from sitemill.entries import Entry
from sitemill.render._compiledform import CompiledTemplate
from sitemill.urls import URI_CHARS

# Markers no loc or lastmod holds, to find the fields in a probe's output.
_LOC, _LASTMOD = "\x00", "\x01"
# Every character a block's loc may hold: URI characters, "%" escapes and one "#".
_LOC_CHARS: Final = URI_CHARS + "%#"
_SAMPLES: Final = (
    Entry("https://example.com/a&b'c#d%41(x)", "2024-02-29T23:59:59+00:00"),
    Entry("https://example.com/", None),
)


@dataclass(frozen=True, slots=True)
class LineForm:
    """The fixed text around an entry's fields: ``dated`` before the loc, between it and
    the lastmod, after the lastmod (``between`` None: the template does not write the
    lastmod); ``undated`` before and after the loc; ``escapes`` what each character of a
    loc that the template escapes becomes (in the order to apply them)."""

    dated: tuple[bytes, bytes | None, bytes]
    undated: tuple[bytes, bytes]
    escapes: tuple[tuple[bytes, bytes], ...]

    def escape(self, loc: bytes) -> bytes:
        for char, entity in self.escapes:
            loc = loc.replace(char, entity)
        return loc


def line_form(compiled: CompiledTemplate) -> LineForm | None:
    """The template's LineForm, or None when its entries are more than fixed text around
    one loc and at most one lastmod after it (then entries are rendered one by one)."""
    render = compiled.render_entry
    try:
        dated = render(Entry(_LOC, _LASTMOD)).split(_LOC)
        undated = render(Entry(_LOC)).split(_LOC)
    except Exception:  # (the compiled function only writes fields; anything odd: no form)
        return None
    if len(dated) != 2 or len(undated) != 2 or _LASTMOD in "".join((*undated, dated[0])):
        return None
    after = dated[1].split(_LASTMOD)
    if len(after) > 2:
        return None
    between, end = (after[0], after[1]) if len(after) == 2 else (None, after[0])
    try:
        escapes = _escapes(compiled, undated[0], undated[1])
    except ValueError:
        return None
    form = LineForm(
        (dated[0].encode(), None if between is None else between.encode(), end.encode()),
        (undated[0].encode(), undated[1].encode()),
        escapes,
    )
    if any(render(sample).encode() != _written(form, sample) for sample in _SAMPLES):
        return None
    return form


def _escapes(
    compiled: CompiledTemplate, before: str, after: str
) -> tuple[tuple[bytes, bytes], ...]:
    """What each loc character that the template changes becomes, "&" first (so that no
    entity is escaped again)."""
    found: list[tuple[bytes, bytes]] = []
    for char in _LOC_CHARS:
        text = compiled.render_entry(Entry(f"a{char}b"))
        if not (text.startswith(before + "a") and text.endswith("b" + after)):
            raise ValueError(char)
        written = text[len(before) + 1 : len(text) - len(after) - 1]
        if written != char:
            found.append((char.encode(), written.encode()))
    found.sort(key=lambda pair: pair[0] != b"&")
    return tuple(found)


def _written(form: LineForm, entry: Entry) -> bytes:
    """What the form writes for an entry (to check it against the template)."""
    stamp = entry.lastmod.encode() if entry.lastmod else None
    return entry_text(form, form.escape(entry.loc.encode()), stamp)


def entry_text(form: LineForm, loc: bytes, lastmod: bytes | None) -> bytes:
    """One entry's text, its loc escaped already."""
    before, between, after = form.dated
    if not lastmod:
        return form.undated[0] + loc + form.undated[1]
    if between is None:
        return before + loc + after
    return before + loc + between + lastmod + after
