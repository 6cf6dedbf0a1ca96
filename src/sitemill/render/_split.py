"""Render entries into sitemap files, each within max_urls and max_bytes, in one stream."""
# A compiled template (see sitemill.render.compiled) renders each entry on its own, so the split is
# found with running sums of the entries' sizes. Any other template is rendered a file at a time
# and, when that file is over the byte limit, again with fewer entries until it fits.

from __future__ import annotations

import functools
import logging
import operator
from bisect import bisect_right
from collections.abc import Callable, Iterator
from itertools import accumulate, islice
from operator import attrgetter
from typing import TYPE_CHECKING, TypeVar

from sitemill.entries import Entry, RenderedSitemap
from sitemill.errors import TemplateError
from sitemill.render._compiledform import CompiledTemplate

if TYPE_CHECKING:  # (a template read by Jinja: the built-in ones come compiled, render.builtin)
    import jinja2

# Entries rendered per step of the compiled path: large enough to keep the loop in C, small
# enough that the lookahead past a file's end costs nothing.
_BATCH = 1_024
_LASTMOD = attrgetter("lastmod")
_ALTERNATES = attrgetter("alternates")
_IMAGES = attrgetter("images")
_T = TypeVar("_T")

log = logging.getLogger(__name__)


def _utf8_size(text: str) -> int:
    return len(text) if text.isascii() else len(text.encode("utf-8"))


def render_sitemaps(
    entries: Iterator[Entry],
    template: jinja2.Template,
    *,
    max_urls: int,
    max_bytes: int,
    extensions: bool = True,
) -> Iterator[RenderedSitemap]:
    """Stream entries into as many files as the limits need; yields nothing for no entries.
    Without ``extensions``, no entry has alternates or images (none is looked at for them)."""
    from sitemill.render.compiled import try_compile_template

    compiled = try_compile_template(template)
    if isinstance(compiled, CompiledTemplate):
        return render_compiled(
            entries,
            compiled,
            template.name,
            max_urls=max_urls,
            max_bytes=max_bytes,
            extensions=extensions,
        )
    # Only a user's template gets here (the built-in ones compile): say why it is the slow path.
    log.debug("template %s is rendered by Jinja, not compiled: %s", template.name, compiled.reason)
    return _render_with_jinja(entries, template, max_urls=max_urls, max_bytes=max_bytes)


def render_compiled(
    entries: Iterator[Entry],
    compiled: CompiledTemplate,
    name: str | None,
    *,
    max_urls: int,
    max_bytes: int,
    extensions: bool,
) -> Iterator[RenderedSitemap]:
    """The same split, for a template compiled to a function per entry.

    Entries are rendered a batch at a time and the byte limit is found with running sums
    and a bisection, so the per-entry work stays in C. A file declares an extension's
    namespace only when an entry uses it: the first such entry also pays for the declaration.
    """
    extra = _declaration_sizes(compiled)
    budget = max_bytes - _utf8_size(compiled.header) - _utf8_size(compiled.footer)
    source = iter(entries)
    held: list[Entry] = []  # taken from the source, rendered, not yet in a file
    held_text: list[str] = []
    held_flags: list[int] | None = None  # per held entry: 1 alternates, 2 images; None: none
    while True:
        parts: list[str] = []
        size = count = 0
        uses = 0  # the extensions this file's entries use so far (bits as in held_flags)
        lastmod: str | None = None
        while count < max_urls:
            if not held:
                held = list(islice(source, _BATCH))
                if not held:
                    break
                held_flags = _extension_flags(held) if extensions else None
                held_text = _render_batch(compiled, name, held, plain=held_flags is None)
            texts = held_text[: max_urls - count]
            # totals[k]: the size with k more entries
            totals = _running_sizes_declaring(size, texts, held_flags, uses, extra)
            fit = bisect_right(totals, budget) - 1
            if fit == 0 and count == 0:
                raise TemplateError(
                    f"one URL does not fit in max_bytes ({max_bytes} bytes): {held[0].loc}"
                )
            parts += texts[:fit]
            size = totals[fit]
            count += fit
            lastmod = _newer(lastmod, held[:fit])
            if held_flags is not None:
                uses = functools.reduce(operator.or_, held_flags[:fit], uses)
                held_flags = held_flags[fit:]
            held, held_text = held[fit:], held_text[fit:]
            if fit < len(texts):
                break  # the next entry does not fit in this file
        if count == 0:
            return
        parts.insert(0, compiled.header_for(bool(uses & 1), bool(uses & 2)))
        parts.append(compiled.footer)
        text = "".join(parts)
        del parts  # hold at most two copies of a file at a time, and only the bytes after
        data = text.encode("utf-8")
        del text
        yield RenderedSitemap((data,), count, lastmod)


def _declaration_sizes(compiled: CompiledTemplate) -> tuple[int, int]:
    """How many bytes the header grows by when a file uses alternates, images."""
    plain = _utf8_size(compiled.header)
    return (
        _utf8_size(compiled.header_for(True, False)) - plain,
        _utf8_size(compiled.header_for(False, True)) - plain,
    )


def _extension_flags(batch: list[Entry]) -> list[int] | None:
    """Per entry, which extensions it uses (1: alternates, 2: images); None when none does
    (the usual batch: two passes in C)."""
    if not any(map(_ALTERNATES, batch)) and not any(map(_IMAGES, batch)):
        return None
    return [(1 if entry.alternates else 0) | (2 if entry.images else 0) for entry in batch]


def _running_sizes_declaring(
    start: int, texts: list[str], flags: list[int] | None, uses: int, extra: tuple[int, int]
) -> list[int]:
    """``_running_sizes``, where the first entry of the file that uses an extension also
    carries the size of its namespace declaration (``flags``: see _extension_flags)."""
    if flags is None:
        return _running_sizes(start, texts)
    sizes = [start]
    total = start
    for text, used in zip(texts, flags, strict=False):
        total += _utf8_size(text)
        new = used & ~uses
        if new:
            total += (extra[0] if new & 1 else 0) + (extra[1] if new & 2 else 0)
            uses |= new
        sizes.append(total)
    return sizes


def _render_batch(
    compiled: CompiledTemplate, name: str | None, batch: list[Entry], *, plain: bool
) -> list[str]:
    try:
        if plain:  # no entry of the batch has alternates or images
            return compiled.render_plain_batch(batch)
        return compiled.render_batch(batch)
    except Exception as exc:  # (it only writes fields: a bug, but still one line)
        from sitemill.render.environment import template_error

        raise template_error(name, exc) from exc


def _running_sizes(start: int, texts: list[str]) -> list[int]:
    """``start``, then ``start`` plus the UTF-8 size of each prefix of ``texts``."""
    sizes = (
        list(map(len, texts))
        if all(map(str.isascii, texts))
        else [len(text.encode("utf-8")) for text in texts]
    )
    return list(accumulate(sizes, initial=start))


def _newer(lastmod: str | None, entries: list[Entry]) -> str | None:
    """The newer of ``lastmod`` and the newest lastmod among ``entries``."""
    newest: str | None = max(filter(None, map(_LASTMOD, entries)), default=None)
    if newest is not None and (lastmod is None or newest > lastmod):
        return newest
    return lastmod


def _render_with_jinja(
    entries: Iterator[Entry], template: jinja2.Template, *, max_urls: int, max_bytes: int
) -> Iterator[RenderedSitemap]:
    """Any template: render up to max_urls entries, and if that is over max_bytes, find
    how many fit by rendering again (a few renders: size grows almost linearly)."""

    def render(batch: list[Entry]) -> bytes:
        try:
            return template.render(
                entries=batch,
                uses_alternates=any(map(_ALTERNATES, batch)),
                uses_images=any(map(_IMAGES, batch)),
            ).encode("utf-8")
        except Exception as exc:  # whatever the template's own code raised: one line
            from sitemill.render.environment import template_error

            raise template_error(template.name, exc) from exc

    source = iter(entries)
    carried: list[Entry] = []
    empty = render([])
    while batch := carried + list(islice(source, max_urls - len(carried))):
        count, data = fit_within(render, batch, max_bytes)
        if count == 0:
            raise TemplateError(
                f"one URL does not fit in max_bytes ({max_bytes} bytes): {batch[0].loc}"
            )
        if data == empty:
            raise TemplateError(f"template {template.name} does not iterate over 'entries'")
        lastmod = max(filter(None, map(_LASTMOD, batch[:count])), default=None)
        yield RenderedSitemap((data,), count, lastmod)
        carried = batch[count:]


def fit_within(
    render: Callable[[list[_T]], bytes], items: list[_T], max_bytes: int
) -> tuple[int, bytes]:
    """The longest prefix of ``items`` whose rendering fits in ``max_bytes``, and its bytes.

    Interpolation search on the rendered size, which grows almost linearly with the count;
    returns (0, b"") when not even one item fits.
    """
    data = render(items)
    if len(data) <= max_bytes:
        return len(items), data
    low, low_size, best = 0, len(render([])), b""
    high, high_size = len(items), len(data)
    while high - low > 1:
        guess = low + (high - low) * (max_bytes - low_size) // max(high_size - low_size, 1)
        middle = min(max(guess, low + 1), high - 1)
        candidate = render(items[:middle])
        if len(candidate) <= max_bytes:
            low, low_size, best = middle, len(candidate), candidate
        else:
            high, high_size = middle, len(candidate)
    return low, best
