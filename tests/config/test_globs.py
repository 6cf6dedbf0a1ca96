"""Glob patterns: *, ?, [...], ** and the gitignore-like anchoring."""

import pytest

from sitemill.config.globs import compile_glob
from sitemill.errors import GlobSyntaxError

# (pattern, path, matches); test_globs_pathspec.py also runs these against pathspec.
GLOB_CASES = [
    ("**/*.html", "index.html", True),
    ("**/*.html", "a/b/c.html", True),
    ("**/*.html", "a/b/c.htm", False),
    ("*.pdf", "deep/down/x.pdf", True),
    ("*.pdf", "x.pdf", True),
    ("/*.pdf", "deep/x.pdf", False),
    ("/*.pdf", "x.pdf", True),
    ("drafts/", "drafts/a.html", True),
    ("drafts/", "drafts/x/y.html", True),
    ("drafts/", "other/drafts/y.html", True),
    ("drafts/", "drafts", False),
    ("/drafts/", "other/drafts/y.html", False),
    ("drafts/**", "drafts/x/y.html", True),
    ("drafts/**", "other/drafts/y.html", False),
    ("a/**/b.html", "a/b.html", True),
    ("a/**/b.html", "a/x/y/b.html", True),
    ("a/*/b.html", "a/x/y/b.html", False),
    ("page?.html", "page1.html", True),
    ("page?.html", "page10.html", False),
    ("?.html", "é.html", True),
    ("[!a]*.html", "b.html", True),
    ("[!a]*.html", "a.html", False),
    ("[a-c].html", "b.html", True),
    ("*.html", "a/.html", True),
    ("a b/*.html", "a b/c.html", True),
    ("\\*.html", "*.html", True),
    ("\\*.html", "x.html", False),
    # A trailing "/" names directories only, as in git: "**/" is every directory, so not a
    # file at the root, and "a/**/" is a directory below a, so not a file directly in a.
    ("**/", "index.html", False),
    ("**/", "a/index.html", True),
    ("/**/", "index.html", False),
    ("a/**/", "a/b.html", False),
    ("a/**/", "a/b/c.html", True),
    # Character classes read as git's wildmatch reads them.
    ("[]]x", "]x", True),
    ("[!]]x", "ax", True),
    ("[!]]x", "]x", False),
    ("[!]]x", "a]x", False),
    ("[\\*].html", "*.html", True),
    ("[\\*].html", "\\.html", False),
    ("[\\]]x", "]x", True),
    ("[a-]x", "-x", True),
    ("[a-c-e]", "-", True),
    ("[a-c-e]", "d", False),
    ("a[.-0]b", "a.b", True),
    ("a[.-0]b", "a/b", False),
    ("a[!x]b", "a/b", False),
    ("[a&&b]", "&", True),
    ("a[[:]", "a:", True),
    # Whitespace around a pattern goes; an escaped space stays.
    (" *.pdf ", "x.pdf", True),
    ("foo\\ ", "foo ", True),
    ("foo\\ ", "foo", False),
    ("\\ x", " x", True),
    # No comments: "#" is a character.
    ("#x", "#x", True),
    ("\\#x", "#x", True),
    ("\\!x", "!x", True),
]


@pytest.mark.parametrize(("pattern", "path", "matches"), GLOB_CASES)
def test_glob_matching(pattern: str, path: str, matches: bool) -> None:
    assert compile_glob(pattern).matches(path) is matches


# A pattern that git reads as matching a directory does not take in the files below it:
# only a trailing "/" (or "/**") does (see test_globs_pathspec.py for why).
@pytest.mark.parametrize(
    ("pattern", "path"),
    [("blog", "blog/post.html"), ("blog/*", "blog/2024/post.html"), ("*.html", "x.html/a.png")],
)
def test_a_match_on_a_directory_is_not_a_match_below_it(pattern: str, path: str) -> None:
    assert not compile_glob(pattern).matches(path)
    assert compile_glob(pattern).matches(path.rpartition("/")[0])


@pytest.mark.parametrize(
    "bad",
    [
        "",
        "  ",
        "[abc",
        "a**b",
        "**b",
        "]x",
        "a\\",
        "[a/b]",
        "[\\/]",
        "[a-\\/]",
        "[z-a]",
        "[a--b]",
        "[[:digit:]]",
        "[\\",
        "!drafts/",
        "/",
    ],
)
def test_invalid_globs_raise(bad: str) -> None:
    with pytest.raises(GlobSyntaxError):
        compile_glob(bad)


def test_negation_error_says_what_to_do_instead() -> None:
    with pytest.raises(GlobSyntaxError, match="exclude"):
        compile_glob("!drafts/")
