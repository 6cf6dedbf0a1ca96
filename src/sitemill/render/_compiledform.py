"""A compiled template: its fixed text and a function per entry, built from its parts' source."""
# Without Jinja: the built-in templates' parts are kept compiled (render.builtincode), so that a
# run with them renders without importing Jinja; sitemill.render.compiled makes the parts of any
# other template from Jinja's parse of it.

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from sitemill.entries import Entry


@dataclass(frozen=True, slots=True)
class CompiledTemplate:
    """A template split into its fixed header and footer and a function per entry."""

    header: str  # for a file whose entries use no extension
    footer: str
    render_entry: Callable[[Entry], str]
    render_batch: Callable[[list[Entry]], list[str]]  # the same, for many entries at once
    # The header for a file whose entries use alternates, images: (uses_alternates, uses_images)
    headers: dict[tuple[bool, bool], str]
    # render_batch for entries without alternates and images (the loops over them left out:
    # the usual batch, at the speed of a template without them)
    render_plain_batch: Callable[[list[Entry]], list[str]]

    def header_for(self, uses_alternates: bool, uses_images: bool) -> str:
        return self.headers[uses_alternates, uses_images]


@dataclass(frozen=True, slots=True)
class CompiledParts:
    """What a template compiles to: its headers (by the file's flags), its footer and the
    source of render_entry, render_batch and render_plain_batch."""

    headers: dict[tuple[bool, bool], str]
    footer: str
    source: str


def build_compiled(parts: CompiledParts) -> CompiledTemplate:
    """The template ``parts`` describe (SyntaxError, RecursionError or MemoryError for a
    source too deep to compile)."""
    namespace: dict[str, object] = {"_escape": xml_escape}
    exec(compile(parts.source, "<sitemill-template>", "exec"), namespace)  # noqa: S102
    render_entry, render_batch = namespace["render_entry"], namespace["render_batch"]
    render_plain_batch = namespace["render_plain_batch"]
    assert callable(render_entry) and callable(render_batch) and callable(render_plain_batch)
    headers = parts.headers
    return CompiledTemplate(
        headers[False, False], parts.footer, render_entry, render_batch, headers, render_plain_batch
    )


# XML escaping exactly as Jinja's autoescape writes it, for the compiled renderer.
# markupsafe.escape's replacements, in its order (& first, so nothing is escaped twice).
_XML_SPECIAL: Final = (("&", "&amp;"), (">", "&gt;"), ("<", "&lt;"), ("'", "&#39;"), ('"', "&#34;"))
XML_SPECIAL_CHARS: Final = "".join(char for char, _ in _XML_SPECIAL)


def xml_escape(value: object) -> str:
    """Exactly what Jinja's autoescape writes for ``value`` (markupsafe.escape), as a str."""
    if value.__class__ is not str:
        import markupsafe  # (not a str: no field of an entry, so seldom)

        return str(markupsafe.escape(value))
    text: str = value
    if "&" in text or "<" in text or ">" in text or "'" in text or '"' in text:
        for char, entity in _XML_SPECIAL:
            text = text.replace(char, entity)
    return text
