"""Test helpers: assert that generated sitemaps pass the official XSDs and the protocol rules.

Import from a test module in this folder: ``from xsd import assert_valid_sitemaps``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from sitemill.validate import Violation, check_xsd, validate_paths


def _fail(what: str, violations: list[Violation]) -> None:
    listing = "\n".join(f"  {violation}" for violation in violations)
    pytest.fail(f"{what}: {len(violations)} violation(s)\n{listing}")


def assert_valid_sitemaps(directory_or_file: Path, base_url: str | None = None) -> None:
    """Fail unless the file, or the directory's sitemap.xml/.txt and its children, are valid."""
    __tracebackhide__ = True
    violations = validate_paths([directory_or_file], base_url)
    if violations:
        _fail(str(directory_or_file), violations)


def assert_xsd_valid(data: bytes) -> None:
    """Fail unless one in-memory document (urlset or index, gzip or not) passes its XSD."""
    __tracebackhide__ = True
    violations = check_xsd(data)
    if violations:
        _fail("document", violations)
