"""Test helpers: assert that generated sitemaps pass the official XSDs and the protocol rules.

Import from a test module in this folder: ``from xsd import assert_valid_sitemaps``.
Warnings (a repeated loc, a .gz name on plain XML) do not fail these helpers unless a test
asks with ``warnings=True``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from outputlist import validate_paths
from sitemill.validate import Violation, check_xsd


def _fail(what: str, violations: list[Violation]) -> None:
    listing = "\n".join(f"  {violation}" for violation in violations)
    pytest.fail(f"{what}: {len(violations)} violation(s)\n{listing}")


def _failing(violations: list[Violation], warnings: bool) -> list[Violation]:
    return violations if warnings else [v for v in violations if v.is_error]


def assert_valid_sitemaps(
    directory_or_file: Path, base_url: str | None = None, *, warnings: bool = False
) -> None:
    """Fail unless the file, or the directory's sitemap.xml/.txt and its children, are valid."""
    __tracebackhide__ = True
    violations = _failing(validate_paths([directory_or_file], base_url), warnings)
    if violations:
        _fail(str(directory_or_file), violations)


def assert_xsd_valid(data: bytes, *, warnings: bool = False) -> None:
    """Fail unless one in-memory document (urlset or index, gzip or not) passes its XSD."""
    __tracebackhide__ = True
    violations = _failing(check_xsd(data), warnings)
    if violations:
        _fail("document", violations)
