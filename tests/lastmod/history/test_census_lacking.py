"""A commit's census names the other pages it changed; one it could not name (git did not give
it the page's versions: a partial clone, a pruned mirror, a worker that read nothing) is not
counted, and the run goes on (history.templateedits). MDAnalysis' user guide (2,060 pages)
ended in a KeyError there."""

from __future__ import annotations

from collections import Counter

from sitemill.lastmod.history import _templateedits as templateedits
from sitemill.lastmod.history._probes import section_of
from sitemill.lastmod.history._sectioncensus import section_changes
from sitemill.lastmod.history.edits import edit_of
from sitemill.lastmod.history.versions import Version
from sitemill.lastmod.history.walk import Run


def test_a_page_the_census_could_not_name_is_not_counted() -> None:
    # Eight posts of one section, all changed by one commit; four stop there with one edit,
    # not template by the stops alone; the census names the other four, but one it cannot.
    posts = [f"a/post-{n}.html" for n in range(8)]
    old, new = Version(100, b"a" * 20, False), Version(200, b"b" * 20, False)
    pages = {path: Run([new, old]) for path in posts}
    commits = templateedits._commit_changes(section_changes(pages, section_of))
    edit = edit_of("Posts Updated: June", "Posts Posted: June")
    tables: tuple[dict[tuple[str, int], str | None], ...] = ({}, {}, {}, {}, {})
    named = [(path, 1) for path in posts[:4]]
    tables[0].update(dict.fromkeys(named, edit))

    def name(stops: list[tuple[str, int]]) -> int:
        tables[0].update({stop: edit for stop in stops if stop != ("a/post-7.html", 1)})
        return 2 * len(stops)

    counts = (commits, Counter(section_of(path) for path in posts), Counter({200: 8}))
    chosen, read = templateedits._by_commits(named, [], pages, counts, name, tables)  # type: ignore[arg-type]
    assert read > 0  # (the census named the others)
    assert chosen == named  # (7 of the commit's 8 pages made the edit: the template's)
