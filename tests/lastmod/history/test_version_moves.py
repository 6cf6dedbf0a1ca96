"""A deploy that moved a release's tag in each page's source link and another library's
version in its links made one edit on every page (history.targetmoves names a move by what
moved between the common start and end of its two ends, not by the page's own path around it):
it moves no date, while a page whose own words or own link changed in that deploy is dated by
it (issue 79, endpoints4s). Shaped like Scaladoc's API pages: each links its own source file
at the release's tag and the standard library's types at its version."""

from __future__ import annotations

from pathlib import Path

from treedates import at, dated

# Each class's module and the standard types its page links.
CLASSES = {
    "Codec": ("json-schema", ("Any", "AnyRef", "Boolean")),
    "Decoder": ("json-schema", ("Any", "Int")),
    "Encoder": ("algebra", ("AnyRef", "Unit", "Long")),
    "Tupler": ("algebra", ("Any", "Double")),
    "Validated": ("algebra", ("Boolean", "Int", "Unit")),
    "Invalid": ("openapi", ("AnyRef", "Long")),
}


def api(tag: str, library: str, *, words: str = "", elsewhere: str = "") -> dict[str, str]:
    """Each class's page at release ``tag``, linking the standard types at ``library``;
    ``words`` edits that class's description, ``elsewhere`` retargets that class's link to
    its companion onto another class."""
    pages = {}
    for name, (module, types) in CLASSES.items():
        source = f"https://github.com/acme/lib/blob/{tag}/{module}/src/main/scala/{name}.scala"
        links = "".join(
            f'<a href="https://www.scala-lang.org/api/{library}/scala/{kind}.html#scala.{kind}">'
            f"{kind}</a> "
            for kind in types
        )
        companion = "Tupler" if name == elsewhere else name
        said = " It is final." if name == words else ""
        pages[f"api/{name}.html"] = (
            f"<html><head><title>{name}</title></head><body><main><h1>{name}</h1>"
            f"<p>The {name} of the library.{said}</p><p>Members: {links}</p>"
            f'<p><a href="{companion}$.html">Companion</a> <a href="{source}">Source</a></p>'
            "</main></body></html>\n"
        )
    return pages


def test_a_tag_and_a_library_version_moved_on_every_page_move_no_date(tmp_path: Path) -> None:
    found = dated(tmp_path, [api("v1.11.1", "2.13.12"), api("v1.12.0", "2.13.14")])
    assert found == {f"api/{name}.html": at(0) for name in CLASSES}, found


def test_a_page_with_its_own_words_or_link_in_that_deploy_is_dated_by_it(
    tmp_path: Path,
) -> None:
    builds = [
        api("v1.11.1", "2.13.12"),
        api("v1.12.0", "2.13.14", words="Decoder", elsewhere="Validated"),
    ]
    found = dated(tmp_path, builds)
    moved = {"Decoder", "Validated"}
    expected = {f"api/{name}.html": at(1 if name in moved else 0) for name in CLASSES}
    assert found == expected, found
