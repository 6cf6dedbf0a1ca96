"""A URL list holds no page to read: an llms setting with `sitemill urls` is one line, exit 2,
nothing written (it wrote the sitemap and no llms file, and said nothing)."""

from __future__ import annotations

from pathlib import Path

import pytest

from clirun import run_sitemill


@pytest.mark.parametrize("flag", ["--llms-txt", "--llms-full", "--llms-pages"])
def test_an_llms_setting_with_a_url_list_is_refused(tmp_path: Path, flag: str) -> None:
    listed = tmp_path / "urls.txt"
    listed.write_text("https://example.org/a\nhttps://example.org/b\n")
    out = tmp_path / "out"
    base = ("--base-url", "https://example.org/")
    done = run_sitemill("urls", str(listed), *base, "--out", str(out), flag)
    assert done.returncode == 2
    key = flag.removeprefix("--").replace("-", "_")
    assert key in done.stderr and len(done.stderr.strip().splitlines()) == 1
    assert not out.exists() or list(out.iterdir()) == []
