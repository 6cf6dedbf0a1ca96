"""Fixtures of the HTML tests."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from sitemill.html import reduction


@pytest.fixture(scope="module")
def every_page_by_lines() -> Iterator[None]:
    """Pages of any length are read line by line (a page of a few lines is otherwise read
    whole: reduction._MEMO_LINES), so that a module's tests exercise the line memo."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(reduction, "_MEMO_LINES", 0)
        yield
