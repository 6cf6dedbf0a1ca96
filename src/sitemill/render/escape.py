"""XML escaping exactly as Jinja's autoescape writes it, for the compiled renderer."""

from __future__ import annotations

from typing import Final

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
