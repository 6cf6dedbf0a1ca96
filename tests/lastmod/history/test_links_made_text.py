"""A link made plain text on most pages of a commit is the template's edit (issue 79, yarp): a
reference generator stopped linking a platform type, ``⟨Object⟩`` made ``System.Object``, on
every API page, three times on a page that shows it in its inheritance, its base type and a
member's signature, once on the others. The three links that went are no links that moved onto
the page itself (history.targetmoves.self_links): one target named no part of any page, and no
other link of the page moved with it, so each page's edit is named alike, not by the page's own
path. Shaped like a DocFX API reference (text our own)."""

from __future__ import annotations

from pathlib import Path

from sitemill.lastmod.fingerprint.digest import reduce_file
from sitemill.lastmod.history._stopedits import own_path
from sitemill.lastmod.history.edits import names_of
from treedates import BASE, at, dated

TYPES = ("Proxy.Routes", "Proxy.Clusters", "Proxy.Health", "Proxy.Forwarder", "Proxy.Model")
OBJECT = "https://learn.example.net/dotnet/api/system.object"


def _object(linked: bool) -> str:
    return f'<a href="{OBJECT}">Object</a>' if linked else "System.Object"


def api_page(name: str, linked: bool, *, often: bool, edited: bool = False) -> str:
    """An API page of type ``name``: ``Object`` three times where ``often``, else once."""
    shown = _object(linked)
    more = f"<h3>Base type</h3><p>{shown}</p><h3>Equals</h3><p>{shown} other</p>" if often else ""
    said = " Retries once." if edited else ""
    return (
        f"<html><head><title>Class {name} | YARP</title></head><body><nav><a href='/'>YARP"
        f"</a></nav><article><h1>Class {name}</h1><p>Routes a request.{said}</p>"
        f"<h3>Inheritance</h3><p>{shown}</p>{more}</article></body></html>\n"
    )


def reference(linked: bool, *, edited: str = "") -> dict[str, str]:
    """Every API page, the first two showing ``Object`` three times."""
    return {
        f"api/{name}.html": api_page(name, linked, often=at < 2, edited=name == edited)
        for at, name in enumerate(TYPES)
    }


def test_a_link_made_text_on_every_page_moves_only_the_page_with_its_own_edit(
    tmp_path: Path,
) -> None:
    found = dated(tmp_path, [reference(True), reference(False, edited="Proxy.Model")])
    pages = {f"api/{name}.html": at(1 if name == "Proxy.Model" else 0) for name in TYPES}
    assert found == pages, found


def test_three_links_made_text_are_named_alike_on_every_page() -> None:
    named = []
    for name in TYPES[:2]:
        path = f"api/{name}.html"
        newer, older = (
            reduce_file(path, api_page(name, linked, often=True).encode(), base=BASE)
            for linked in (False, True)
        )
        named.append(names_of(newer, older, own_path(BASE, path)))
    assert named[0][0] == named[1][0], named
    assert not any(name in token for token in named[0][2][0] for name in TYPES), named[0][2]
