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

from collections import Counter
from typing import Final

from sitemill.lastmod.fingerprint.digest import spaced, split_title

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
    (see above): the title's parts the same once case-folded, in the order the fingerprint
    gives them case-folded, and every other token equal, in the same place."""
    if len(older) != len(newer) or older == newer:
        return False
    titled = _title_length(older)
    if _title_length(newer) != titled or _folded_parts(older[:titled]) != _folded_parts(
        newer[:titled]
    ):
        return False
    return all(
        old == new or (old[:1] == new[:1] == "w" and old.casefold() == new.casefold())
        for old, new in zip(older[titled:], newer[titled:], strict=True)
    )


# The fingerprint keeps a title's parts in sorted order (fingerprint.titleparts), and a sort
# tells letters by their case: Hugo 0.55, which stopped title-casing taxonomy terms, made "Bash |
# Max Gonzih" "bash | Max Gonzih", read "Max Gonzih | bash" (B < M < b), on every category page
# whose term sorted before the site's name and on no other (issue 79: 96 category pages of a blog
# dated by the upgrade). A title recased alone is compared as its parts case-folded, then sorted:
# the order the fingerprint would give it had it not told case, so a part that changed place by
# its case alone is the same recasing on every page.


def _title_length(sequence: list[str]) -> int:
    """How many tokens of ``sequence`` (history.edits._sequence) are its title's words: the
    first, each "t" and a word."""
    for at, token in enumerate(sequence):
        if token[:1] != "t":
            return at
    return len(sequence)


def _folded_parts(title: list[str]) -> list[str]:
    """The parts of the title whose words are ``title`` ("t" and a word), case-folded, sorted."""
    return sorted(part.casefold() for part in split_title(" ".join(w[1:] for w in title)))


# White space the fingerprint reads as no word's end (beside anything but a letter or a digit,
# fingerprint version 5) is no edit's either. Words are split at white space, so a generator
# that dropped the space between each source line's number and its code ("1 #ifndef" made
# "1#ifndef": Doxygen 1.9.4's line numbers, read alike by the fingerprint) or re-spaced a
# signature ("&&... args)" made "&&...args)") took out and put in words on every such page, and
# those pages' edit beside a release bumped on every page was their own (issue 79: 4 pages of
# a C++ reference dated by releases that changed none of their words). respaced_runs reads each
# run of the words an edit took out or put in as the fingerprint reads it: a run of one version
# that the other holds, as one, respaced, is the same words.


def respaced_runs(
    older: list[str], newer: list[str], old: Counter[str], new: Counter[str]
) -> tuple[list[str], list[str]] | None:
    """The token sequences ``older`` and ``newer`` (history.edits._sequence: "w" and a word
    of the text, any other a mark or a title's word; counted: ``old``, ``new``) with each run
    of consecutive words counted differently that the other version also holds as a run, once
    the white space a fingerprint leaves out is left out (fingerprint.digest.spaced), made one
    word on both sides: an edit that respaced them named as the fingerprint reads it, no edit
    of those words (see above). None when no run is shared."""
    differing = {token for token, _ in old.items() ^ new.items() if token[:1] == "w"}
    fell = {token for token in differing if old[token] > new[token]}
    if not (_glues(differing - fell, fell) or _glues(fell, differing - fell)):
        return None
    before, after = _runs(older, differing), _runs(newer, differing)
    shared = Counter(before.values()) & Counter(after.values())
    # (only a reading the two versions split into words differently was respaced: the same
    # words on both sides, "front matter" made "Front Matter" beside a "Front Matter" that
    # stood, are words the edit counted anew, not respaced)
    split = (_splits(older, before), _splits(newer, after))
    shared = Counter(
        {word: count for word, count in shared.items() if split[0][word] != split[1][word]}
    )
    if not shared:
        return None
    return _glued(older, before, Counter(shared)), _glued(newer, after, Counter(shared))


def _glues(glued: set[str], pieces: set[str]) -> bool:
    """Whether a word of ``glued`` (those one version has more of) may be words of ``pieces``
    (those the other has more of) respaced: one of its starts, a word and more, is one of
    them ("1#ifndef" and "1"); the first word of a run respaced is always counted differently,
    so a version whose words glue none of the other's has no run to make one (a release
    number bumped: "3.11.0" and "3.10.0")."""
    return any(
        word[:end] in pieces
        for word in glued
        if not word[1:].isalnum()
        for end in range(2, len(word))
    )


def _runs(sequence: list[str], differing: set[str]) -> dict[tuple[int, int], str]:
    """The runs of consecutive words of ``sequence`` in ``differing`` (start, end), each as
    the fingerprint reads it (its words joined by a space, spaced)."""
    runs: dict[tuple[int, int], str] = {}
    places = [at for at, token in enumerate(sequence) if token in differing]
    for at, place in enumerate(places):
        if at and places[at - 1] == place - 1:
            continue  # (inside a run begun before)
        end = place + 1
        while end < len(sequence) and sequence[end] in differing:
            end += 1
        if end == place + 1:
            runs[place, end] = sequence[place]  # (one word: as it is, no white space in it)
        else:
            runs[place, end] = "w" + spaced(" ".join(word[1:] for word in sequence[place:end]))
    return runs


def _splits(
    sequence: list[str], runs: dict[tuple[int, int], str]
) -> dict[str, set[tuple[str, ...]]]:
    """How ``sequence`` splits each reading of its ``runs`` into words."""
    found: dict[str, set[tuple[str, ...]]] = {}
    for (start, end), word in runs.items():
        found.setdefault(word, set()).add(tuple(sequence[start:end]))
    return found


def _glued(
    sequence: list[str], runs: dict[tuple[int, int], str], shared: Counter[str]
) -> list[str]:
    """``sequence`` with each of its ``runs`` whose reading is ``shared`` (as often as it is)
    made one word, its reading."""
    out: list[str] = []
    last = 0
    for (start, end), word in sorted(runs.items()):
        if shared[word] > 0:
            shared[word] -= 1
            out += sequence[last:start]
            out.append(word)
            last = end
    return out + sequence[last:]
