"""White space a fingerprint reads as no word's end (beside anything but a letter or a digit,
fingerprint version 5) is no edit's either (history.respacing.respaced_runs, dating rules 16).
A generator release that dropped the space between each source line's number and its code
("1 #ifndef" made "1#ifndef": Doxygen 1.9.4) and re-spaced signatures ("&&... args)" made
"&&...args)"), beside the project's release bumped on every page, changed no word of a source
page whose code stayed the same: it keeps its date, while a page whose code changed in that
release is dated by it, and a space taken out between two words ("Install it" made
"Installit") is still an edit. Shaped like a Doxygen reference (text our own), in a real
repository with fixed dates."""

from __future__ import annotations

from pathlib import Path

from gitutil import commit, make_repo
from sitemill.lastmod.fingerprint.digest import reduce_html
from sitemill.lastmod.history._respacing import RECASED
from sitemill.lastmod.history.edits import edit_of
from treedates import at, built_lastmods

FILES = ("attribute", "config", "version", "fwd", "hashed", "utility", "memory")


def _line(number: int, code: str, glued: bool) -> str:
    """A numbered line of code (each starts with a sign: "1#ifndef" reads as "1 #ifndef")."""
    gap = "" if glued else "&#160;"
    return f"<div class='line'><span class='lineno'>{number:>5}</span>{gap}{code}</div>"


def _code(index: int, name: str, glued: bool, changed: bool, comment: str) -> list[str]:
    """The lines of header ``name`` (the ``index``-th: as many lines of its own), each
    starting with a sign, so that "1#ifndef" reads as "1 #ifndef"."""
    guard = f"PROJECT_{name.upper()}_H"
    return [
        f"#ifndef {guard}",
        f"#define {guard}",
        f"<span class='comment'>/* {comment}. */</span>",
        *(f"#include &lt;{name}/part{n}.h&gt;" for n in range(2 * index)),
        "#define CALL(args) f(args &amp;&amp;" + ("..." if glued else "... ") + "args)",
        "#define SIZE 8" if changed else "#define SIZE 4",
        "#endif",
    ]


def source(release: str, *, glued: bool, changed: str = "", worded: str = "") -> dict[str, str]:
    """A source page per header file: its lines numbered, and the release in every page;
    ``changed``: the file whose code the release changed; ``worded``: the file whose
    comment lost the space between two words."""
    head = "<html><head><title>Project: {}.h Source File</title></head><body>"
    shown = f"<div id='projectnumber'>{release}</div><div class='contents'><div class='fragment'>"
    numbered = {
        name: _code(
            at,
            name,
            glued,
            name == changed,
            "Install" + ("" if name == worded else " ") + "it here",
        )
        for at, name in enumerate(FILES)
    }
    return {
        f"{name}_8h_source.html": head.format(name)
        + shown
        + "".join(_line(n, text, glued) for n, text in enumerate(code, start=1))
        + "</div></div></body></html>\n"
        for name, code in numbered.items()
    }


def test_line_numbers_glued_to_the_code_date_no_source_page(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "site")
    commit(repo, source("3.10.0", glued=False), "2024-01-10 09:00:00")
    commit(repo, source("3.11.0", glued=True, changed="config"), "2024-02-11 09:00:00")
    commit(
        repo, source("3.12.0", glued=True, changed="config", worded="memory"), "2024-03-12 09:00:00"
    )
    found = built_lastmods(repo)
    expected = {path: at(0) for path in source("", glued=True)}
    expected["config_8h_source.html"] = at(1)  # (its code changed in that release)
    expected["memory_8h_source.html"] = at(2)  # ("Install it" made "Installit": two words one)
    assert found == expected, found


def test_a_run_respaced_names_no_words() -> None:
    def reduced(text: str) -> str:
        return reduce_html(f"<html><body><main><p>{text}</p></main></body></html>".encode())

    release = edit_of(reduced("Release 3.11.0 of it."), reduced("Release 3.10.0 of it."))
    respaced = edit_of(
        reduced("Release 3.11.0 of it: 1#ifndef A, f(x&amp;&amp;...args)."),
        reduced("Release 3.10.0 of it: 1 #ifndef A, f(x &amp;&amp;... args)."),
    )
    assert respaced == release
    glued = edit_of(
        reduced("Release 3.11.0 of it: Installit."), reduced("Release 3.10.0 of it: Install it.")
    )
    assert glued != release
    # (words recased beside the same words that stood: no run respaced, the edit a recasing)
    assert (
        edit_of(
            reduced("Front Matter then Front Matter"), reduced("front matter then Front Matter")
        )
        == RECASED
    )
