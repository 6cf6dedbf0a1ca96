"""The work git log tells the walk will do (history.walkwork): counted, never timed."""

from __future__ import annotations

from pathlib import Path

from sitemill.lastmod.history.files import FileVersions
from sitemill.lastmod.history.versions import Version
from sitemill.lastmod.history.walk import blob_key
from sitemill.lastmod.history.walkwork import EXPECTED_READS, older_work
from sitemill.workers.workpool import page_work


def blob(n: int) -> bytes:
    return f"{n:040x}".encode()


def versions(chains: dict[str, list[bytes | None]]) -> FileVersions:
    found = {
        path: [Version(1000 - age, each, age == len(chain) - 1) for age, each in enumerate(chain)]
        for path, chain in chains.items()
    }
    return FileVersions(Path("."), found, frozenset(), shallow=False)


def test_each_file_counts_its_first_distinct_older_blobs_at_its_size() -> None:
    long = [blob(n % 3 + 1) for n in range(40)]  # tip 1, then 2, 3, 1, 2, 3, ...
    found = versions(
        {
            "many.html": [blob(0)] + [blob(n) for n in range(1, 30)],
            "flips.html": long,
            "deleted.html": [blob(50), blob(51), None, blob(52)],
            "alone.html": [blob(60)],
            "unlisted.html": [blob(70), blob(71)],
        }
    )
    sizes = {"many.html": 1000, "flips.html": 2000, "deleted.html": 3000, "alone.html": 4000}

    work = older_work(found, sizes, {})
    expected = EXPECTED_READS * page_work(1000) + 2 * page_work(2000) + page_work(3000)
    assert work == expected

    # What an earlier run remembers is not read again.
    known = {blob_key("many.html", blob(n)): "f" for n in range(1, 30)}
    assert older_work(found, sizes, known) == expected - EXPECTED_READS * page_work(1000)
