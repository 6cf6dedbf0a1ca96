"""A sharded bucket's dry run previews what the run then does: on the stack's 61-page site
(shards = auto, the state partitioned) one sitemap.xml, not "2 sitemap files"; and after the
run, a dry run finds nothing to change."""

from __future__ import annotations

import re
from typing import Any

import pytest
from test_stack_terminal import (  # noqa: F401 (s3, _logging: fixtures)
    FUNCTION,
    SITE,
    _logging,
    s3,
    sitemaps,
)

from sitemill.cli.main import main


def run(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    assert main(["s3", "--function", FUNCTION, *args]) == 0
    return capsys.readouterr().out


def test_a_dry_run_previews_the_files_the_run_writes(
    s3: Any,  # noqa: F811 (the fixture)
    capsys: pytest.CaptureFixture[str],
) -> None:
    preview = run(capsys, "--dry-run")
    assert sitemaps(s3) == {}
    assert "61 URLs in 1 sitemap file\n" in preview
    would = re.findall(r"^would write: (.+)$", preview, re.MULTILINE)

    done = run(capsys)

    assert done.startswith(f"nothing needs you\n61 URLs in one sitemap in s3://{SITE}/")
    assert list(sitemaps(s3)) == ["sitemap.xml"] == would
    again = run(capsys, "--dry-run")
    assert "61 URLs in 1 sitemap file\n" in again
    assert "nothing would change" in again and "would write" not in again
