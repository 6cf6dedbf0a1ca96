"""What a check of the live site found: one problem per URL and kind, each with its fix."""
# A problem names the URL it was found at, what is wrong there and what fixes it, in one line each.
# The report keeps them in a stable order (by URL, then kind), whatever order the answers came in,
# so that two checks of one site print the same lines; and the URLs that passed, for IndexNow.

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Final

from sitemill.messages import shown

# The kinds of problem, as the JSON of a Lambda and the job summary name them.
SITEMAP: Final = "sitemap"  # a sitemap file is not this build's, or is served wrong
ROBOTS: Final = "robots"  # robots.txt names no sitemap of this build, or a dead one
PAGE: Final = "page"  # a <loc> is no page a crawler keeps (status, redirect, type, noindex)
CANONICAL: Final = "canonical"  # its canonical names another URL
ALTERNATES: Final = "alternates"  # an hreflang alternate is not live or does not link back
STALE: Final = "stale"  # it serves another version than the one sitemill dated
KEY_FILE: Final = "key-file"  # the IndexNow key file is not live on the site's host
UNCHECKED: Final = "unchecked"  # the run's deadline came first
SITE: Final = "site"  # no URL was checked: the base URL is not the build's, or unreachable
# A URL the last build removed leads nowhere (404, 410), is still served, or redirects wrong.
REMOVED_URL: Final = "removed"
# An llms file (llms.txt, llms-full.txt) or a Markdown twin is not this build's, or served wrong.
LLMS: Final = "llms"
KINDS: Final = (
    SITEMAP,
    ROBOTS,
    PAGE,
    CANONICAL,
    ALTERNATES,
    STALE,
    KEY_FILE,
    UNCHECKED,
    SITE,
    REMOVED_URL,
    LLMS,
)


@dataclass(frozen=True, order=True, slots=True)
class Problem:
    """One thing wrong at ``url``, and what fixes it."""

    url: str
    kind: str
    what: str  # what is wrong, one line
    fix: str  # what to do about it, one line

    def line(self) -> str:
        return shown(f"{self.url}: {self.what}; {self.fix}")

    def to_json(self) -> dict[str, str]:
        return {
            "url": shown(self.url),
            "kind": self.kind,
            "problem": shown(self.what),
            "fix": shown(self.fix),
        }


@dataclass
class CheckReport:
    """Everything one check found: its problems, the URLs that passed and the counts."""

    base_url: str
    problems: list[Problem] = field(default_factory=list)
    passed: set[str] = field(default_factory=set)  # <loc>s that passed every page check
    # The IndexNow key files read: location -> why not live (None: live). The send's evidence:
    # a key file is read once, by the check (indexnow.send).
    key_files: dict[str, str | None] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)  # not problems: what was not compared, why
    requests: int = 0
    sitemaps: int = 0  # sitemap files compared with what was published
    pages: int = 0  # <loc>s checked
    listed: int = 0  # <loc>s published
    changed: int = 0  # of the checked, added or changed by the run that published them
    removed: int = 0  # URLs the last build removed, asked (check.removedurls)
    removed_kept: int = 0  # of them on the site's origin, as the state keeps them
    llms: int = 0  # llms files compared with what was published (llms.livecheck)
    twins: int = 0  # Markdown twins asked
    seconds: float = 0.0

    def add(self, url: str, kind: str, what: str, fix: str) -> None:
        self.problems.append(Problem(url, kind, what, fix))

    def sorted_problems(self) -> list[Problem]:
        """Each problem once, by URL then kind."""
        return sorted(set(self.problems))

    @property
    def ok(self) -> bool:
        return not self.problems

    def by_kind(self) -> Counter[str]:
        return Counter(problem.kind for problem in self.sorted_problems())

    def summary(self) -> str:
        """One line: what was checked, and how many problems of which kind."""
        checked = f"checked {self.sitemaps:,} sitemap file(s)"
        if self.llms:
            checked += f", {self.llms:,} llms file(s)"
        if self.twins:
            checked += f", {self.twins:,} Markdown twin(s)"
        checked += (
            f" and {self.pages:,} of {self.listed:,} URL(s) ({self.changed:,} added or changed)"
        )
        if self.removed_kept:
            checked += f" and {self.removed:,} of {self.removed_kept:,} removed URL(s)"
        checked += f" in {self.requests:,} request(s), {self.seconds:.1f} s"
        if self.ok:
            return f"live: {checked}; no problem"
        kinds = ", ".join(f"{kind} {count:,}" for kind, count in sorted(self.by_kind().items()))
        return f"live: {checked}; {len(self.sorted_problems()):,} problem(s) ({kinds})"

    def to_json(self) -> dict[str, Any]:
        removed = {"removed": self.removed, "removed_kept": self.removed_kept}
        llms = {"llms": self.llms, **({"twins": self.twins} if self.twins else {})}
        return {
            "status": "ok" if self.ok else "problems",
            "base_url": shown(self.base_url),
            "sitemaps": self.sitemaps,
            **(llms if self.llms else {}),
            "urls": self.listed,
            "checked": self.pages,
            "changed": self.changed,
            "passed": len(self.passed),
            **(removed if self.removed_kept else {}),
            "requests": self.requests,
            "problems": [problem.to_json() for problem in self.sorted_problems()],
            "notes": [shown(note) for note in self.notes],
        }
