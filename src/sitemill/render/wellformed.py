"""Check that what a user's XML template wrote is well-formed XML, before anything is written."""

from __future__ import annotations

from sitemill.errors import TemplateError


def check_well_formed(name: str, data: bytes) -> None:
    """A TemplateError naming the file when ``data`` is not well-formed XML."""
    from xml.parsers import expat  # (a user's template only: not on the built-ins' path)

    parser = expat.ParserCreate()
    try:
        parser.Parse(data, True)
    except expat.ExpatError as exc:
        reason = expat.ErrorString(exc.code)
        raise TemplateError(
            f"{name}: the template rendered XML that is not well-formed ({reason} at line "
            f"{exc.lineno}, column {exc.offset + 1}); nothing was written"
        ) from exc
