"""Show what one commit changed in one page: inside the oracle's article, and outside it.

    python benchmarks/realsites/explain.py /work/realsites-data/SITE PAGE COMMIT [--xpath XPATH]

Each version is written one element a line (``ancestors > tag.class[attrs]: text``), so a
minified page diffs readably; lines inside the oracle's article are marked ``A``, the rest ``-``.
Used to tell which furniture (a nav label, a TOC, a footer, a meta tag) moved a date.
``--sitemill`` also diffs what sitemill's fingerprint reads of the two versions (its own
reduction, imported from the installed package): the words it saw change.
"""

from __future__ import annotations

import argparse
import difflib
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
import oracle

SHOWN_ATTRS = ("href", "src", "content", "name", "property", "rel", "role", "id", "datetime")


def element_lines(data: bytes, article_xpath: str | None) -> list[str]:
    doc = oracle.parse(data)
    if doc is None:
        return []
    article = oracle.find_article(doc, article_xpath)
    inside = set(article.iter())
    lines = []
    for element in doc.iter():
        if not isinstance(element.tag, str) or element.tag in ("script", "style"):
            continue
        classes = ".".join((element.get("class") or "").split()[:2])
        attrs = " ".join(f"{a}={element.get(a)!r}" for a in SHOWN_ATTRS if element.get(a))
        text = " ".join((element.text or "").split())[:160]
        depth = sum(1 for _ in element.iterancestors())
        mark = "A" if element in inside else "-"
        lines.append(
            f"{mark} {depth:>2} {element.tag}{'.' + classes if classes else ''}"
            f"{' [' + attrs + ']' if attrs else ''}{': ' + text if text else ''}"
        )
    return lines


def sitemill_words(data: bytes, url: str = "") -> list[str]:
    from sitemill.lastmod.fingerprint.digest import reduce_html

    text = reduce_html(data, url=url)
    for mark, shown in (("\x01H", " ⟨H "), ("\x01I", " ⟨I "), ("\x01S", " ⟨S "), ("\x01D", " ⟨D ")):
        text = text.replace(mark, shown)
    return text.replace("\x01E", " ⟩ ").replace("\x01", " ").split()


def word_changes(before: bytes, after: bytes, url: str = "") -> list[str]:
    """Where sitemill's reductions of two versions differ, word by word (its link and image
    marks shown as ⟨H target⟩ / ⟨I target⟩); ``url``: the page's, its links resolved from it
    as sitemill resolves them (without it, a relative target reads as from the root)."""
    old, new = sitemill_words(before, url), sitemill_words(after, url)
    matcher = difflib.SequenceMatcher(a=old, b=new, autojunk=False)
    changes = []
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag != "equal":
            changes.append(f"{' '.join(old[i1:i2])!r} -> {' '.join(new[j1:j2])!r}")
    return changes


def show(
    checkout: Path,
    page: str,
    commit: str,
    article_xpath: str | None,
    context: int,
    with_sitemill: bool = False,
    base: str = "",
) -> None:
    def blob(rev: str) -> bytes:
        return subprocess.run(
            ["git", "-C", str(checkout), "show", f"{rev}:{page}"], capture_output=True, check=True
        ).stdout

    try:
        before = blob(f"{commit}^")
    except subprocess.CalledProcessError:
        print(f"{page} is not in {commit}^: this commit added it (or git followed a rename to it)")
        return
    after = blob(commit)
    print(
        "oracle key equal:",
        oracle.content_key(before, article_xpath) == oracle.content_key(after, article_xpath),
    )
    diff = difflib.unified_diff(
        element_lines(before, article_xpath),
        element_lines(after, article_xpath),
        f"{commit}^:{page}",
        f"{commit}:{page}",
        n=context,
        lineterm="",
    )
    for line in diff:
        print(line[:300])
    if with_sitemill:
        print("--- what sitemill's fingerprint read differently (words):")
        url = base.rstrip("/") + "/" + page if base else ""
        for change in word_changes(before, after, url):
            print(f"  {change[:600]}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("checkout", type=Path)
    parser.add_argument("page")
    parser.add_argument("commit")
    parser.add_argument("--xpath", help="the site's article_xpath (sites.json)")
    parser.add_argument("--context", type=int, default=1)
    parser.add_argument("--sitemill", action="store_true", help="diff sitemill's reduction too")
    parser.add_argument(
        "--base",
        default="",
        help="the site's base URL (sites.json): links read from the page's URL",
    )
    args = parser.parse_args()
    show(args.checkout, args.page, args.commit, args.xpath, args.context, args.sitemill, args.base)
    return 0


if __name__ == "__main__":
    sys.exit(main())
