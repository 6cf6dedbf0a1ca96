"""A template edit stays one past its round (issue 79, actix's ``actix/utils/index.html``): a page
that reaches a commit's template edit after the others were carried past it, alone, because a
later template edit of its own stopped its walk sooner, is carried past it too. Shaped like
rustdoc's pages: a copy button made the words "Copy item path" on most pages of one deploy; a
later deploy put an "Expand" toggle on some of them and on other pages."""

from __future__ import annotations

from pathlib import Path

from treedates import at, dated

MODULES = [f"a/m{n}.html" for n in range(6)] + ["a/utils.html"]
OTHERS = [f"b/t{n}.html" for n in range(6)]


def page(name: str, *, copy: bool, expand: bool, words: str = "") -> str:
    button = "<button>Copy item path</button>" if copy else '<button><img src="c.svg"></button>'
    toggle = "<a>Expand</a>" if expand else ""
    return (
        f"<html><head><title>{name} - Rust</title></head><body><main><h1>Module {name}"
        f"{button}</h1>{toggle}<p>What {name} holds.{words}</p></main></body></html>\n"
    )


def builds(*, own: str = "") -> list[dict[str, str]]:
    """Build 0; build 1, the copy button's words on every module page; build 2, the toggle on
    utils.html and the other pages (``own``: utils.html's own words in build 2 too)."""
    first = {path: page(path, copy=False, expand=False) for path in MODULES + OTHERS}
    second = {path: page(path, copy=True, expand=False) for path in MODULES}
    third = {path: page(path, copy=False, expand=True) for path in OTHERS}
    third["a/utils.html"] = page("a/utils.html", copy=True, expand=True, words=own)
    return [first, second, third]


def test_a_page_that_reaches_a_template_edit_alone_is_carried_past_it(tmp_path: Path) -> None:
    found = dated(tmp_path, builds())
    assert found == {path: at(0) for path in MODULES + OTHERS}, found


def test_its_own_words_still_date_it(tmp_path: Path) -> None:
    found = dated(tmp_path, builds(own=" And a timer."))
    expected = {path: at(0) for path in MODULES + OTHERS}
    assert found == {**expected, "a/utils.html": at(2)}, found
