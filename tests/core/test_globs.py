"""Glob patterns: *, ?, [...], ** and the gitignore-like anchoring."""

import pytest

from sitemill.errors import GlobSyntaxError
from sitemill.globs import compile_glob


@pytest.mark.parametrize(
    ("pattern", "path", "matches"),
    [
        ("**/*.html", "index.html", True),
        ("**/*.html", "a/b/c.html", True),
        ("**/*.html", "a/b/c.htm", False),
        ("*.pdf", "deep/down/x.pdf", True),
        ("*.pdf", "x.pdf", True),
        ("/*.pdf", "deep/x.pdf", False),
        ("/*.pdf", "x.pdf", True),
        ("drafts/", "drafts/a.html", True),
        ("drafts/", "drafts/x/y.html", True),
        ("drafts/**", "drafts/x/y.html", True),
        ("drafts/**", "other/drafts/y.html", False),
        ("a/**/b.html", "a/b.html", True),
        ("a/**/b.html", "a/x/y/b.html", True),
        ("a/*/b.html", "a/x/y/b.html", False),
        ("page?.html", "page1.html", True),
        ("page?.html", "page10.html", False),
        ("[!a]*.html", "b.html", True),
        ("[!a]*.html", "a.html", False),
        ("[a-c].html", "b.html", True),
        ("*.html", "a/.html", True),
        ("a b/*.html", "a b/c.html", True),
        ("\\*.html", "*.html", True),
        ("\\*.html", "x.html", False),
    ],
)
def test_glob_matching(pattern: str, path: str, matches: bool) -> None:
    assert compile_glob(pattern).matches(path) is matches


@pytest.mark.parametrize("bad", ["", "  ", "[abc", "a**b", "**b", "]x", "a\\", "[a/b]"])
def test_invalid_globs_raise(bad: str) -> None:
    with pytest.raises(GlobSyntaxError):
        compile_glob(bad)
