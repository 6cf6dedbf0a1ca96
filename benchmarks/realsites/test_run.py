"""run.py's run over several sites, on real git repositories with fixed dates. Run by hand, as
the oracle is (not part of ``make test``):

    .venv/bin/python -m pytest -q -p no:cacheprovider -n 0 benchmarks/realsites/test_run.py
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent.parent / "tests"))

import run  # noqa: E402
from gitutil import commit, git, make_repo  # noqa: E402

DAY1, DAY2 = "2024-01-01T10:00:00", "2024-02-01T10:00:00"
SITEMILL = str(Path(sys.executable).with_name("sitemill"))


def page(text: str) -> str:
    head = "<!doctype html><html><head><title>T</title></head>"
    return f"{head}<body><main><p>{text}</p></main></body></html>"


def test_a_site_whose_history_git_cannot_read_is_not_measured_and_the_others_are(
    tmp_path: Path,
) -> None:
    # al-folio-multilang: a page moved and edited in one commit, the old blob absent from the
    # mirror, so the oracle's `git log -M` stops ("unable to read"); rapidjson, measured
    # before it in the same run, was lost with it.
    words = " ".join(f"word{n}" for n in range(200))
    whole = make_repo(tmp_path / "data" / "whole")
    commit(whole, {"index.html": page("Hello")}, DAY1)
    commit(whole, {"index.html": page("Hello again")}, DAY2)
    broken = make_repo(tmp_path / "data" / "broken")
    commit(broken, {"old.html": page(words)}, DAY1)
    commit(broken, {"old.html": None, "new.html": page(words + " more")}, DAY2)
    lost = git(broken, "rev-parse", "HEAD~1:old.html").decode().strip()
    (broken / ".git" / "objects" / lost[:2] / lost[2:]).unlink()
    sites = [
        {"name": name, "repo": f"x/{name}", "commit": "", "base_url": "https://example.org/"}
        for name in ("broken", "whole")
    ]
    results, not_measured = run.measure_sites(sites, tmp_path / "data", SITEMILL)
    assert [result["name"] for result in results] == ["whole"]
    assert results[0]["same"] == 1
    assert list(not_measured) == ["broken"]
    assert not_measured["broken"] == f"git log: fatal: unable to read {lost}"


def test_the_details_name_each_page_a_reading_dates_apart_with_both_commits(
    tmp_path: Path,
) -> None:
    # issue 79's measurement: the clusters are found page by page from the details, for the text
    # reading too (its counts alone said how many, not which pages nor which commits).
    site = make_repo(tmp_path / "data" / "site")
    commit(site, {"a.html": page("First words"), "b.html": page("Other words")}, DAY1)
    commit(site, {"b.html": page("Other words, made new")}, DAY2)
    log = git(site, "log", "--format=%H", "--reverse").decode().split()
    dates = run.oracle.date_pages(site, None, "v6", "https://example.org/")
    listed = {
        "https://example.org/a.html": "2024-02-01T10:00:00+00:00",  # after its content
        "https://example.org/b.html": "2024-01-01T10:00:00+00:00",  # before its edit
    }
    found = run.differing(listed, dates, "https://example.org/")
    assert (
        found
        == {
            "later": [
                {
                    "page": "a.html",
                    "sitemill": "2024-02-01T10:00:00+00:00",
                    "sitemill_commit": "",  # (no commit of a.html at that time)
                    "reading": "2024-01-01",
                    "reading_commit": log[0][:10],
                }
            ],
            "earlier": [
                {
                    "page": "b.html",
                    "sitemill": "2024-01-01T10:00:00+00:00",
                    "sitemill_commit": log[0][:10],
                    "reading": "2024-02-01",
                    "reading_commit": log[1][:10],
                }
            ],
        }
    )


def test_the_oracle_cache_key_covers_every_module_the_readings_import() -> None:
    # A change of template.py or stamps.py (version 6's own modules) is a new reading: the
    # key hashed oracle.py and textoracle.py alone, and a count after such a change read the
    # cache of the reading before it (read92, heldout91).
    listed = set(run.READING_SOURCES)
    local = {path.name for path in HERE.glob("*.py")}
    found = set()
    for name in listed:
        text = (HERE / name).read_text()
        for word in re.findall(r"^\s*(?:import|from)\s+(\w+)", text, re.MULTILINE):
            if f"{word}.py" in local:
                found.add(f"{word}.py")
    assert found <= listed, sorted(found - listed)
    assert "template.py" in listed and "stamps.py" in listed
