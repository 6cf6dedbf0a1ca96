"""An edit that moved only white space between what a page says, or changed only its letter
case (history.edits)."""
# A theme that put a tag page's label beside its name on one line ("cache\n<small>Tag</small>"
# made "cache<small>Tag</small>": a reader sees "cache Tag" become "cacheTag") kept every letter,
# digit and mark of the page, in order. No word of such an edit is the page's own, and no name of
# its words tells one page's from another's: it is named by its kind, RESPACED, which rewords
# nothing (its first digit is of the kind that changed neither the text's words nor only what a
# site carries, 4 to 7, apart from history.stopedits' names), so that the same respacing on most
# pages of a section in one commit is template (history.sectioncensus).

from __future__ import annotations

from typing import Final

RESPACED: Final = "5" + "0" * 31
# A theme that capitalises each tag's name where its tag page shows it (Congo 2.8: "users" made
# "Users" in the title, the heading and the breadcrumb of tags/users/, "html" made "Html" on
# tags/html/) kept every word of every page, in order; what tells one page's edit from another's
# is the page's own name, as an insertion that differs between pages only by the page's own values
# is one edit (wave 7). Such an edit, which changed the letter case of the title's and the text's
# words and nothing else (no target, no mark), is named by its kind, RECASED, which rewords nothing
# (history.edits.rewords: words are compared in lower case), so that the same recasing on most
# pages of a section in one commit is template (history.sectioncensus). A page recased alone is
# still dated by it: the name says what kind of edit it is, not that it is none (issue 79).
RECASED: Final = "6" + "0" * 31


def respaced(newer: str, older: str) -> bool:
    """Whether reduction ``older`` became ``newer`` by white space alone (see above)."""
    return newer != older and unspaced(newer) == unspaced(older)


def unspaced(text: str) -> str:
    """``text`` without its white space: what ``re.sub(r"\\s+", "", text)`` gives (str.split
    and the expression's ``\\s`` hold the same characters white space: test_edit_names), in
    half its time (a stop's two reductions, 100 KB each on hugegraph, are read whole)."""
    return "".join(text.split())


def recased(older: list[str], newer: list[str]) -> bool:
    """Whether the token sequence ``older`` (history.edits._sequence: "t" and "w" a title's and
    the text's words, any other a mark) became ``newer`` by the letter case of its words alone
    (see above): every other token equal, in the same place."""
    if len(older) != len(newer) or older == newer:
        return False
    return all(
        old == new or (old[:1] == new[:1] and old[:1] in "tw" and old.casefold() == new.casefold())
        for old, new in zip(older, newer, strict=True)
    )
