"""One XML sitemap as a reader hands it over: the root, then batches of finished root children."""

# The reader (libxml2: validate.lxml_reader) drops what it has handed over, so a document costs
# about one batch of tree at a time, whatever its size. Here each batch gets the protocol rules
# and the XSD.

from __future__ import annotations

import operator
from collections.abc import Callable, Iterator, Sequence
from typing import Final, NamedTuple, Protocol

from sitemill.protocol import SITEMAP_NS
from sitemill.validate._prolog import encoding_problem
from sitemill.validate._urls import LocRules, lastmod_problems
from sitemill.validate.limits import MAX_OTHER_NODES, NOT_FURTHER, too_many_others
from sitemill.validate.violation import (
    ENTRY_LIMIT,
    ENTRY_TAG,
    INDEX_TAG,
    URLSET_TAG,
    DocumentStop,
    Violation,
    with_prefixes,
)

# Past this many errors in one file the rest would be noise (and a hostile file's flood).
MAX_ERRORS: Final = 1_000
_TAG: Final = operator.attrgetter("tag")


class Node(Protocol):
    """What the reader's elements offer (lxml's)."""

    @property
    def tag(self) -> object: ...  # lxml gives comments a function here, not a name
    @property
    def text(self) -> str | None: ...
    @property
    def sourceline(self) -> int | None: ...
    def __len__(self) -> int: ...
    def itertext(self) -> Iterator[str]: ...


class Batch(NamedTuple):
    """What the XSD side found in a batch, and the entries' fields for the protocol rules."""

    errors: list[tuple[int | None, str]]  # (line, message)
    locs: list[str]  # each entry's <loc> text
    loc_lines: list[int]
    lastmods: list[str]  # each entry's <lastmod> text
    lastmod_line: Callable[[int], int | None]  # the line of lastmods[i], asked when flagged


class BatchSchema(Protocol):
    """The XSD check of one batch of root children, by an engine."""

    def check(
        self, root: Node, children: Sequence[Node], *, first: bool, lead: bool, trail: bool
    ) -> Batch:
        """Check ``root`` holding ``children``: with its attributes and text if ``first``; with
        a valid stand-in entry before them (``lead``) or after (``trail``)."""
        ...


def element_text(node: Node) -> str:
    """The text of a field, also when comments split it."""
    return (node.text or "") if len(node) == 0 else "".join(node.itertext())


class Document:
    """Collects a document's violations in ``sink``; raises DocumentStop where checking must end."""

    def __init__(
        self, file: str, sink: list[Violation], rules: LocRules | None, schema: BatchSchema
    ) -> None:
        self.file, self.sink, self.rules, self.schema = file, sink, rules, schema
        self.root_tag = ""
        self.root_line: int | None = 1
        self.entries = self.others = self.errors = 0
        self.counted = len(sink)  # violations before this index are other files'
        self.root_checked = False  # the root's own attributes and text went through the XSD
        self.children: list[tuple[str, int]] = []  # an index's (loc, line) pairs

    def _report(self, line: int | None, message: str) -> None:
        self.sink.append(Violation(self.file, line, message))

    def head(self, data: bytes) -> None:
        """The first bytes: the declared encoding (DocumentStop when it is unknown)."""
        problem = encoding_problem(data)
        if problem and self.rules is not None:
            self._report(1, problem)

    def start(self, tag: str, line: int | None) -> None:
        """The root element: <urlset> or <sitemapindex>, or DocumentStop."""
        self.root_tag, self.root_line = tag, line
        if tag not in ENTRY_TAG:
            raise DocumentStop(
                line,
                f"root element is <{with_prefixes(tag)}>; expected <urlset> or <sitemapindex> "
                f"in {SITEMAP_NS}",
            )
        if self.rules is not None:
            self.rules.index = tag == INDEX_TAG

    def add(self, root: Node, children: Sequence[Node], *, last: bool) -> None:
        """A batch of finished root children, in document order; ``last`` ends the document."""
        stop: DocumentStop | None = None
        cut, before = len(children), self.entries
        entry, limit = ENTRY_TAG[self.root_tag], ENTRY_LIMIT[self.root_tag]
        tags = list(map(_TAG, children))
        if tags.count(entry) == cut and before + cut <= limit:
            self.entries += cut  # the usual batch: entries only, in C loops
        else:
            for number, child in enumerate(children):
                stop = self._child(child)
                if stop is not None:
                    cut = number
                    break
        self._xsd(root, children[:cut], before, last=last and stop is None)
        if stop is not None:
            raise stop
        self._count_errors()

    def _child(self, child: Node) -> DocumentStop | None:
        tag, entry = child.tag, ENTRY_TAG[self.root_tag]
        if tag == entry:
            self.entries += 1
            limit = ENTRY_LIMIT[self.root_tag]
            if self.entries > limit:
                message = (
                    f"more than {limit:,} <{with_prefixes(entry)}> in one file (protocol maximum)"
                )
                return DocumentStop(child.sourceline, f"{message}; {NOT_FURTHER}")
            return None
        if isinstance(tag, str) and (self.entries or _in_own_namespace(tag)):
            # Only elements of other namespaces, before the first entry, may stand here (XSD).
            return DocumentStop(
                child.sourceline,
                f"XSD: <{with_prefixes(tag)}> is not expected here: "
                f"<{with_prefixes(self.root_tag)}> holds <{with_prefixes(entry)}> elements, "
                f"after any of other namespaces; {NOT_FURTHER}",
            )
        return self._count_other(child.sourceline)

    def other(self, line: int | None) -> None:
        """A comment or PI directly in the root, for readers whose batches leave them out."""
        stop = self._count_other(line)
        if stop is not None:
            raise stop

    def _count_other(self, line: int | None) -> DocumentStop | None:
        self.others += 1
        if self.others <= MAX_OTHER_NODES:
            return None
        entry = ENTRY_TAG[self.root_tag]
        return DocumentStop(
            line, too_many_others(with_prefixes(self.root_tag), with_prefixes(entry))
        )

    def _xsd(self, root: Node, children: Sequence[Node], before: int, *, last: bool) -> None:
        if not children and not (last and (not self.root_checked or not self.entries)):
            return
        # A batch is checked as a whole root would be: <urlset> holds other namespaces'
        # elements, then one or more entries. Stand-ins say where this batch sits in that order.
        batch = self.schema.check(
            root,
            children,
            first=not self.root_checked,
            lead=before > 0,
            trail=not self.entries and not last,
        )
        self.root_checked = True
        if self.rules is not None:
            self._fields(self.rules, batch, root, children)
        for line, message in batch.errors:
            self._report(line or self.root_line, message)

    def _fields(self, rules: LocRules, batch: Batch, root: Node, children: Sequence[Node]) -> None:
        locs = list(map(str.strip, batch.locs))
        rules.check_all(locs, batch.loc_lines)
        if rules.extensions is not None and self.root_tag == URLSET_TAG:
            rules.extensions(root, children, locs)
        if self.root_tag == INDEX_TAG:
            self.children += zip(locs, batch.loc_lines, strict=True)
        for number, problem in lastmod_problems(batch.lastmods):
            self._report(batch.lastmod_line(number), problem)

    def _count_errors(self) -> None:
        new = self.sink[self.counted :]
        self.counted = len(self.sink)
        self.errors += sum(1 for violation in new if violation.is_error)
        if self.errors > MAX_ERRORS:
            raise DocumentStop(None, f"more than {MAX_ERRORS:,} errors; {NOT_FURTHER}")


def _in_own_namespace(tag: str) -> bool:
    """No namespace, or the sitemap's: not one the root's ``##other`` wildcard admits."""
    return not tag.startswith("{") or tag.startswith(f"{{{SITEMAP_NS}}}")
