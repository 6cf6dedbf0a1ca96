"""A stop's edit named three ways at once (history.edits.names_of): each version's tokens made
once, the same names as edit_of, exact_of and editparts.edit_parts give one by one."""

from __future__ import annotations

import re
from collections import Counter
from functools import partial
from pathlib import Path

import pytest

from gitutil import commit, make_repo, unix
from sitemill.lastmod.fingerprint.digest import fingerprint_file, reduce_file
from sitemill.lastmod.history import edits
from sitemill.lastmod.history._editparts import edit_parts, parts_named
from sitemill.lastmod.history._respacing import unspaced
from sitemill.lastmod.history.contentdates import Reducing, date_by_content, read_file_versions
from sitemill.lastmod.history.edits import edit_of, exact_of, moves_of, names_of

BASE = "https://example.org/"
T1, T2 = "2024-01-10 09:00:00", "2024-02-10 09:00:00"
PAGE = (
    "<html><head><title>{title}</title><meta name=description content='{description}'>"
    "</head><body><main><h1>Post</h1><p>{text}</p><p><a href='{link}'>Docs</a> "
    "<a href='/blog/post/'>here</a></p></main></body></html>\n"
)
_OLD = {"title": "Post - Notes 1.0", "description": "Notes", "text": "Words.", "link": "/a/"}
# (what each older version of the same page changed: words, a title, a description, a target,
# white space alone, a date re-spelled, a number added, a target moved onto the page itself)
CHANGES = (
    {"text": "Other words."},
    {"title": "Post - Notes 1.1"},
    {"description": "Notes, a site"},
    {"link": "/b/"},
    {"text": "Words.  "},
    {"text": "Words. Jan 23, 2018"},
    {"text": "Words. 13 min"},
    {"link": "/blog/post/"},
    {"text": "Words. 2018-01-23"},
)


def _reduced(**changed: str) -> str:
    page = PAGE.format(**{**_OLD, **changed}).encode()
    return reduce_file("blog/post/index.html", page, base=BASE)


@pytest.mark.parametrize("changed", CHANGES)
def test_names_of_names_an_edit_as_each_naming_does(changed: dict[str, str]) -> None:
    own = "blog/post/index.html"
    for newer, older in ((_reduced(**changed), _reduced()), (_reduced(), _reduced(**changed))):
        named = names_of(newer, older, own)
        assert named[:2] == (edit_of(newer, older, own), exact_of(newer, older))
        assert named[2] == moves_of(newer, older, own)
        assert parts_named(named[2]) == edit_parts(newer, older, own)


def test_a_stop_is_named_from_one_tokenizing_of_each_version(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Five pages of one section, each one's own words edited by one commit: five stops named, each
    # version of each read into tokens once for its four names (its sketch too: issue 79).
    repo = make_repo(tmp_path / "site")
    names = ("alpha", "beta", "gamma", "delta", "epsilon")
    paths = [f"blog/{name}/index.html" for name in names]
    commit(repo, {f"blog/{n}/index.html": PAGE.format(**{**_OLD, "text": n}) for n in names}, T1)
    edited = {f"blog/{n}/index.html": PAGE.format(**{**_OLD, "text": f"{n} {n}s"}) for n in names}
    commit(repo, edited, T2)
    tokenized: Counter[str] = Counter()
    tokens = edits._sequence  # (each version's tokens, in order since issue 79: moved_within)

    def counted(reduction: str, *, valued: bool = True) -> list[str]:
        tokenized[reduction] += 1
        return tokens(reduction, valued=valued)

    monkeypatch.setattr(edits, "_sequence", counted)
    fingerprint = partial(fingerprint_file, base=BASE)
    current = {path: fingerprint(path, (repo / path).read_bytes()) for path in paths}
    reduce = partial(reduce_file, base=BASE)
    found = date_by_content(
        read_file_versions(repo, paths), fingerprint, current, reducing=Reducing(reduce)
    )
    assert set(found.dates.values()) == {unix(T2)}
    assert sum(key.startswith("e") for key in found.blobs) == 4 * len(paths)  # (named: 4 names)
    assert sum(tokenized.values()) == 2 * len(paths)
    assert set(tokenized.values()) == {1}


def test_unspaced_takes_out_what_the_white_space_expression_does() -> None:
    # respacing.unspaced stands for re.sub(r"\s+", "", text): every code point either way.
    points = "".join(chr(point) for point in range(0x110000) if not 0xD800 <= point < 0xE000)
    text = "a".join(points[i : i + 7] for i in range(0, len(points), 7))
    assert unspaced(text) == re.sub(r"\s+", "", text)
    assert unspaced(" \u00a0x\u3000y\x1c\x85 ") == re.sub(r"\s+", "", " \u00a0x\u3000y\x1c\x85 ")
