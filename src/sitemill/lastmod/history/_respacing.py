"""An edit that moved only white space between what a page says (history.edits)."""
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


def respaced(newer: str, older: str) -> bool:
    """Whether reduction ``older`` became ``newer`` by white space alone (see above)."""
    return newer != older and unspaced(newer) == unspaced(older)


def unspaced(text: str) -> str:
    """``text`` without its white space: what ``re.sub(r"\\s+", "", text)`` gives (str.split
    and the expression's ``\\s`` hold the same characters white space: test_edit_names), in
    half its time (a stop's two reductions, 100 KB each on hugegraph, are read whole)."""
    return "".join(text.split())
