"""`sitemill diff` on real restructures (tests/diff/realsites), judged by an independent reading.

Every moved page is found, every redirect named, no page kept at its URL reported: the added and
removed sets equal the reading's, each removed URL it calls redirected is redirected, each it calls
renamed at a ratio of 0.95 or more is renamed to its target (or one as good), each it calls gone
with no candidate above 0.8 is gone. Between 0.8 and 0.95 the two readings may differ."""

from __future__ import annotations

import json
import tarfile
from pathlib import Path
from typing import Any

import pytest

import restructures
from sitemill.cli.main import main

HERE = Path(__file__).parent / "realsites"
CASES = {
    "rust-patterns": "https://rust-unofficial.github.io/patterns/",
    "metro": "https://facebook.github.io/metro/",
    "spyder-panes": "https://docs.spyder-ide.org/",
    "drf": "https://www.django-rest-framework.org/",
}
STYLE = ["--url-style", "directory"]  # (the reading's URLs: x/index.html is x/, x.html x.html)


def short(url: str, base: str) -> str:
    return "/" + url[len(base) :] if url.startswith(base) else url


def sitemill_diff(site: Path, base: str, tmp_path: Path, capsys: Any) -> dict[str, Any]:
    state = tmp_path / "state"
    assert (
        main(["-q", "build", str(site / "before"), "--out", str(state), "--base-url", base, *STYLE])
        == 0
    )
    capsys.readouterr()
    against = str(state / "sitemill-state.json.gz")
    argv = ["diff", str(site / "after"), "--base-url", base, "--against", against, "--json", *STYLE]
    assert main(argv) == 0
    report: dict[str, Any] = json.loads(capsys.readouterr().out)
    return report


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_real_restructure(case: str, tmp_path: Path, capsys: Any) -> None:
    base = CASES[case]
    with tarfile.open(HERE / f"{case}.tar.xz") as archive:
        archive.extractall(tmp_path / "site", filter="data")
    site = tmp_path / "site"
    reading = restructures.diff(
        restructures.Build(restructures.read_dir(str(site / "before"))),
        restructures.Build(restructures.read_dir(str(site / "after"))),
        base,
    )
    report = sitemill_diff(site, base, tmp_path, capsys)
    assert sorted(short(url, base) for url in report["added"]) == reading["added"]
    found = {short(item["url"], base): item for item in report["removed"]}
    assert sorted(found) == sorted(reading["removed"])
    judged = 0
    for url, want in reading["removed"].items():
        got, best = found[url], want["best_match"] or {"ratio": 0.0}
        if want["status"] == "redirected":
            assert got["verdict"] == "redirected", (url, got)
        elif want["status"] == "renamed" and best["ratio"] >= 0.95:
            targets = {best["url"], *want["equally_good"]}
            assert got["verdict"] == "renamed" and short(got["target"], base) in targets, (url, got)
        elif want["status"] == "gone" and best["ratio"] < 0.8:
            assert got["verdict"] == "gone", (url, got)
        else:
            continue
        judged += 1
    assert judged >= 0.9 * len(reading["removed"])  # (the borderline ones are few)
