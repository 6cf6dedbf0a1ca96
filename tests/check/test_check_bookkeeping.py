"""The check's work around the judging of each page, counted: nothing made twice a page."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from checkstand import built_site, check

from enginestand import Stand
from sitemill.check import _alternates as alternates
from sitemill.check import _livepages as redirects  # (redirect_fixes: step two's redirects)
from sitemill.check._livepages import PageVerdict
from sitemill.check.problems import CheckReport
from sitemill.state import parse
from sitemill.web.livesite import LiveSite

BASE = "https://example.org"


def _pairs(count: int) -> dict[str, PageVerdict]:
    """``count`` pages in two languages, each naming itself and its other, live."""
    verdicts: dict[str, PageVerdict] = {}
    for number in range(count):
        en, fr = f"{BASE}/en/p{number}.html", f"{BASE}/fr/p{number}.html"
        both = (("en", en), ("fr", fr))
        verdicts[en] = PageVerdict(en, alternates=both, live=True)
        verdicts[fr] = PageVerdict(fr, alternates=both[::-1], live=True)
    return verdicts


def test_alternates_make_each_checked_pages_key_once(monkeypatch: pytest.MonkeyPatch) -> None:
    made: list[str] = []
    key = alternates.resource_key

    def counted(url: str) -> tuple[str, str, str, str]:
        made.append(url)
        return key(url)

    monkeypatch.setattr(alternates, "resource_key", counted)
    verdicts = _pairs(50)
    report = CheckReport(BASE + "/", listed=len(verdicts))
    alternates.check_alternates(LiveSite(frozenset({BASE})), verdicts, report)
    assert report.problems == []
    assert sorted(made) == sorted(verdicts)  # (not again for each alternate naming it back)


def test_redirect_fixes_ask_nothing_of_pages_that_do_not_redirect(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    asked: list[str] = []
    on_site = LiveSite.on_site

    def counted(self: LiveSite, url: str) -> bool:
        asked.append(url)
        return on_site(self, url)

    monkeypatch.setattr(LiveSite, "on_site", counted)
    assert redirects.redirect_fixes(LiveSite(frozenset({BASE})), _pairs(50)) == {}
    assert asked == []  # (each one's "" was parsed as a URL, and failed, once a page)


def test_a_check_parses_the_state_once(
    tmp_path: Path, stand: Stand, monkeypatch: pytest.MonkeyPatch
) -> None:
    root, base = built_site(tmp_path, stand)
    parsed: list[bytes] = []
    parse_state = parse.parse_state

    def counted(data: bytes) -> object:
        parsed.append(data)
        return parse_state(data)

    monkeypatch.setattr(parse, "parse_state", counted)
    checked = check(root, base)
    assert checked.report.sorted_problems() == []
    assert len(parsed) == 1  # (its pending URLs were the state parsed again)


def test_a_check_resolves_the_site_folder_once_not_each_page(
    tmp_path: Path, stand: Stand, monkeypatch: pytest.MonkeyPatch
) -> None:
    root, base = built_site(tmp_path, stand)
    resolved: list[str] = []
    looked: list[str] = []
    realpath, lstat = os.path.realpath, os.lstat

    def counted_realpath(path: object, **kw: bool) -> str:
        resolved.append(os.fspath(path))  # type: ignore[call-overload]
        return realpath(path, **kw)  # type: ignore[call-overload, no-any-return]

    def counted_lstat(path: object, **kw: object) -> os.stat_result:
        looked.append(os.fspath(path))  # type: ignore[call-overload]
        return lstat(path, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(os.path, "realpath", counted_realpath)
    monkeypatch.setattr(os, "lstat", counted_lstat)
    checked = check(root, base)
    assert checked.report.sorted_problems() == []
    pages, folders = checked.report.pages, len({page.parent for page in root.rglob("*.html")})
    assert resolved.count(os.fspath(root)) == 1  # (once a check: it was once a page)
    real = realpath(root) + os.sep
    inside = [path for path in looked if path.startswith(real)]
    assert len(inside) <= pages + folders  # (a page one lstat, a folder one: it was each
    # component of the site folder's path, twice a page)
