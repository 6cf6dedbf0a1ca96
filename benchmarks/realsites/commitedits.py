"""What one commit edited alike on most of the pages it changed: its template edits.

The dates issue's principle, as the oracle's version 6 reads it: an edit on most pages of a
commit is the template, whatever it touches. Each page the commit changed is compared with its
version before, and an edit counts as template when it stands on more than half of those pages
(and at least 4):

- a link or image target added or removed, or replaced by the same change of its middle (each
  page's own source link moved from ``blob/v2.1.2/`` to ``blob/main/``: pkgdown);
- a block (blocks.py: its text with its targets) added or removed, unless it links to a page of
  the site: what a list page lists is its content (the dates issue, decision 2: a new post's
  entry on the category pages one commit changes), and a comments section added to every post
  is the template's (Nikola's Disqus: a heading, a link to the page's own thread, the
  service's credit);
- a word replaced by another, anywhere in the page, its title and furniture too (a release
  number, ``3.10.2`` to ``3.10.3``, in every page's title: Python-Markdown; every post's closing
  ``...PIP!`` made ``...SQUEAK!``: Nikola). A target whose edit is such a replacement
  (``tree/3.10.2/x.py`` to ``tree/3.10.3/x.py``) is template too, and an article whose text
  differs only by them did not change. Not a word of the article's links to the site's
  pages: another page's title on the lists that link to it (a post renamed, the pages that
  list it re-rendered with it: most of the pages its commit changed) is what they list under
  which title (decision 2), and the page's own title changed.

A page whose own edit stands beside the template's keeps it: its text or targets still differ.
lxml and the standard library only, no sitemill code.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

import blocks

MOST = 0.5  # more than this share of the pages the commit changed
AT_LEAST = 4  # and at least this many


@dataclass(frozen=True)
class Template:
    """One commit's template edits (see above)."""

    targets: frozenset[tuple[str, str]] = frozenset()  # target_edits' names
    added: frozenset[int] = frozenset()  # block keys
    removed: frozenset[int] = frozenset()
    swaps: frozenset[tuple[str, str]] = frozenset()  # (a word, the word that replaced it)
    descriptions: frozenset[tuple[str, str]] = frozenset()  # ("-" or "+", a description)


def template_of(pairs: list[tuple[blocks.Reading, blocks.Reading]], changed: int) -> Template:
    """The template edits of a commit that changed ``changed`` pages, from the (before,
    after) readings of those it read."""
    targets: Counter[tuple[str, str]] = Counter()
    swaps: Counter[tuple[str, str]] = Counter()
    added: Counter[int] = Counter()
    removed: Counter[int] = Counter()
    described: Counter[tuple[str, str]] = Counter()
    for old, new in pairs:
        described.update(description_edits(old.description, new.description))
        added.update(new.keys - old.keys - new.listing)
        removed.update(old.keys - new.keys - old.listing)
        targets.update(target_edits(all_targets(old), all_targets(new)))
        swaps.update(
            (word, put)
            for word, put in word_swaps(old.words, new.words)
            if word not in old.linked and put not in new.linked
        )
    least = max(AT_LEAST, int(changed * MOST) + 1)

    def most(counts: Counter[object]) -> frozenset:  # type: ignore[type-arg]
        return frozenset(edit for edit, n in counts.items() if n >= least)

    return Template(most(targets), most(added), most(removed), most(swaps), most(described))  # type: ignore[arg-type]


def description_edits(old: frozenset[str], new: frozenset[str]) -> set[tuple[str, str]]:
    """The descriptions a page lost ("-") and gained ("+"): a site's description given to
    every page that has none of its own, changed in one commit, is that commit's template."""
    return {("-", text) for text in old - new} | {("+", text) for text in new - old}


def descriptions_template(old: frozenset[str], new: frozenset[str], template: Template) -> bool:
    """Whether the page's descriptions say what they said, but for the commit's template
    edits: descriptions lost or gained on most pages it changed, or words it replaced."""
    if {swapped(text, template.swaps) for text in old} == new:
        return True
    return description_edits(old, new) <= template.descriptions


def all_targets(reading: blocks.Reading) -> tuple[str, ...]:
    """The article's targets, every block kept."""
    return blocks.article(reading, frozenset())[1]


def word_swaps(old: tuple[str, ...], new: tuple[str, ...]) -> set[tuple[str, str]]:
    """The words ``old`` lost paired with those ``new`` gained, each once, in the order they
    first stand (a release number in the title pairs with its successor, however much else
    the page gained)."""
    olds, news = set(old), set(new)
    gone = [w for w in dict.fromkeys(old) if w not in news]
    come = [w for w in dict.fromkeys(new) if w not in olds]
    return set(zip(gone, come, strict=False))


def swapped(text: str, swaps: frozenset[tuple[str, str]]) -> str:
    """``text`` with each word the template replaced made its replacement (longest first)."""
    for old, new in sorted(swaps, key=lambda swap: -len(swap[0])):
        text = text.replace(old, new)
    return text


def target_pairs(
    old: tuple[str, ...], new: tuple[str, ...]
) -> tuple[list[tuple[str, str]], list[str], list[str]]:
    """The targets replaced (the removed and the added ones paired in order), and those
    removed and added unpaired."""
    before, after = Counter(old), Counter(new)
    gone = [t for t in dict.fromkeys(old) for _ in range((before - after)[t])]
    come = [t for t in dict.fromkeys(new) for _ in range((after - before)[t])]
    pairs = min(len(gone), len(come))
    return list(zip(gone, come, strict=False)), gone[pairs:], come[pairs:]


def target_edits(old: tuple[str, ...], new: tuple[str, ...]) -> set[tuple[str, str]]:
    """How one version's targets differ from the other's, each edit told by the way it was
    made, so that pages whose own targets were edited the same way share it: a target
    replaced is its changed middle, what stands between the part both share at the start and
    at the end (``blob/v2.1.2/x.md`` to ``blob/main/x.md`` on every page is ``v2.1.2`` to
    ``main``); a target added or removed unpaired is itself."""
    replaced, gone, come = target_pairs(old, new)
    found = {("~", _middle(a, b)) for a, b in replaced}
    return found | {("-", t) for t in gone} | {("+", t) for t in come}


def targets_template(old: tuple[str, ...], new: tuple[str, ...], template: Template) -> bool:
    """Whether every target edit between ``old`` and ``new`` is the commit's template. The
    same targets in another order are never: a reorder takes out and puts in nothing, and
    what a page shows in which order is its own (as sitemill reads it: a showcase's slides
    in a new order, a list's entries)."""
    if old == new:
        return True
    replaced, gone, come = target_pairs(old, new)
    if not (replaced or gone or come):
        return False
    for a, b in replaced:
        if ("~", _middle(a, b)) not in template.targets and not any(
            a.replace(word, put) == b for word, put in template.swaps if word in a
        ):
            return False
    return {("-", t) for t in gone} | {("+", t) for t in come} <= template.targets


def _middle(old: str, new: str) -> str:
    """What differs between two targets once the start and end they share are cut off, each
    read with its path's closing slash (a link from ``/base/`` to the root ``/`` moves as
    ``/base/x`` to ``/x`` does: ``base/`` to nothing)."""
    old, new = _closed(old), _closed(new)
    start = _shared(old, new)
    end = _shared(old[start:][::-1], new[start:][::-1])
    return f"{old[start : len(old) - end]}\0{new[start : len(new) - end]}"


def _closed(target: str) -> str:
    """The target with one slash at its end (blocks.spell keeps the root's and drops others')."""
    return target.rstrip("/") + "/"


def _shared(one: str, other: str) -> int:
    """How many characters the two strings share at their start."""
    count = 0
    for a, b in zip(one, other, strict=False):
        if a != b:
            break
        count += 1
    return count
