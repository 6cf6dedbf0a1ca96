"""globs.py against pathspec's gitignore patterns and against git itself.

The restructure issue asked whether pathspec (``GitIgnoreSpec``, git's .gitignore rules) could
replace globs.py. Not as is: on every glob of the tests and on a generated sweep they agree,
except for the classes pinned in DIFFERENCES, where pathspec departs from git (classes that
match "/", "X/**/", backslashes in classes) or sitemill does on purpose (a match on a
directory, whitespace, comments). ``git check-ignore`` referees: a second sweep checks globs.py
against it directly, and every pinned row carries git's verdict.

Agreement is asserted on a page's own path or any of its directories: git, and pathspec after
it, ignore everything below an ignored directory, while a sitemill glob is matched against the
page's own path (class "below a matched directory").
"""

from __future__ import annotations

import os
import random
import re
import subprocess
import warnings
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Literal, NamedTuple

import pytest
from test_globs import GLOB_CASES

from gitutil import git_env, make_repo
from sitemill.config.globs import Glob, compile_glob
from sitemill.config.model import DEFAULT_INCLUDE
from sitemill.errors import GlobSyntaxError

try:
    from pathspec import GitIgnoreSpec
except ImportError as exc:  # a dev dependency: without it this module must fail, not skip
    raise ImportError("pathspec is missing: pip install -e '.[dev]'") from exc

Verdict = bool | Literal["error"]

# Every pattern the other tests, the README and the defaults use (test_globs.py's own table is
# imported as GLOB_CASES).
PATTERNS_FROM_TESTS = [
    *DEFAULT_INCLUDE,
    # tests/config/test_config.py
    "*.html",
    " docs/**",  # from "*.html,\n docs/**": class "whitespace around a pattern"
    "docs/**",
    "*.pdf",
    "blog/**",
    "tmp/",
    "a/**",
    "x",
    "." * 100,
    "a.b.c.d.e.f.g.h.i.j.k.l.m.n.o.p.q.r.s.t.u.v.w.x.y.z.a.b.c.d.e.f",
    # tests/jobs/test_build_tree.py, test_build_urls.py, tests/aws/test_lambda.py
    "docs/*.txt",
    "blog/drafts/**",
    "*",
    "**/*.txt",
    "blog/private/**",
    "blog/*",
    # tests/github/test_action.py (hostile input values are data)
    "nothing/**",
    "$(touch x)",
    "`touch pwned-2` ; touch pwned-3",
    # README.md and docs/config-file.md
    "drafts/",
    "**/print.html",
    "archive/**",
    "a/**/b.html",
    "[a-z]*.html",
]

NAMES = (
    "a",
    "b",
    "blog",
    "drafts",
    "x.html",
    "index.html",
    "print.html",
    ".hidden",
    "a b",
    "é",
    "日本.pdf",
    "caf\udce9.html",  # a non-UTF-8 byte, as os.fsdecode gives it
    "]",
    "*",
    "?",
    "[a]",
    "a\\b",
    "#x",
    "!x",
    "-",
)
FIXED_PATHS = (
    "index.html",
    "a",
    "a/b",
    "a/b/c.html",
    "blog/post.html",
    "blog/drafts/wip.html",
    "blog/private/c",
    "docs/a.txt",
    "docs/sub/b.txt",
    "tmp/x.html",
    "x.html/logo.png",
    ".well-known/security.txt",
    "a b/c.html",
    "é/日本.pdf",
    "caf\udce9.html",
    "deep/down/x.pdf",
    "*.html",
    "]x",
    "#x",
    "!x",
    "page1.html",
    "a/x/y/b.html",
    "drafts/a.html",
    "other/drafts/y.html",
    "a/print.html",
    "archive/2020/a.html",
    "nothing/x",
    "$(touch x)",
    "p/q/r/s/t.html",
)


class Piece(NamedTuple):
    text: str  # as written in a pattern
    samples: tuple[str, ...]  # names it matches, to build paths that match
    ascii: bool = True


# A class's members (roughly: enough for the patterns of this file) and a range among them.
CLASS = re.compile(r"(?<!\\)\[([!^]?\]?[^]]*)\]")
RANGE = re.compile(r"([^\\])-([^\\])")
PIECES = (
    Piece("a", ("a",)),
    Piece("blog", ("blog",)),
    Piece(".html", (".html",)),
    Piece("-", ("-",)),
    Piece(" ", (" ",)),
    Piece("é", ("é",), ascii=False),
    Piece("日本", ("日本",), ascii=False),
    Piece("caf\udce9", ("caf\udce9",), ascii=False),
    Piece("*", ("", "x", "a.b", " ", "]")),
    Piece("*", ("", "é"), ascii=False),
    Piece("?", ("x", ".", "]")),
    Piece("?", ("é",), ascii=False),
    Piece("[a-c]", ("a", "c", "d")),
    Piece("[!a]", ("b", "]", "a")),
    Piece("[^a]", ("z",)),
    Piece("[]]", ("]",)),
    Piece("[!]]", ("a", "]")),
    Piece("[a-]", ("-", "a")),
    Piece("[]-a]", ("^", "]", "-")),
    Piece("[.-0]", (".", "0", "-")),
    Piece("\\*", ("*",)),
    Piece("\\?", ("?",)),
    Piece("\\[", ("[",)),
    Piece("\\ ", (" ",)),
    Piece("\\#", ("#",)),
    Piece("\\!", ("!",)),
)
# Backslashes inside a class: git reads them as escapes, pathspec as characters (a class of
# DIFFERENCES), so only the sweep against git uses them.
GIT_ONLY_PIECES = (
    Piece("[\\]]", ("]", "\\")),
    Piece("[\\*]", ("*", "\\")),
    Piece("[a\\-c]", ("-", "b", "\\")),
)


class Generated(NamedTuple):
    pattern: str
    paths: tuple[str, ...]


def generate(rng: random.Random, pieces: Sequence[Piece]) -> Generated:
    """A pattern from pieces and "**" segments, with paths built to match it, then mangled."""
    segments: list[list[Piece] | None] = []  # None is a "**" segment
    for _ in range(rng.randint(1, 4)):
        if rng.random() < 0.2:
            segments.append(None)
        else:
            segments.append([rng.choice(pieces) for _ in range(rng.randint(1, 3))])
    body = "/".join("**" if seg is None else "".join(p.text for p in seg) for seg in segments)
    rooted = rng.random() < 0.2
    directories_only = rng.random() < 0.25
    pattern = ("/" if rooted else "") + body + ("/" if directories_only else "")
    if rng.random() < 0.1 and not pattern.endswith("\\ "):
        pattern += " "  # dropped by all three (but see "pathspec refuses")
    anchored = rooted or len(segments) > 1
    paths = [derive_path(rng, segments, anchored, directories_only) for _ in range(10)]
    return Generated(pattern.lstrip(), tuple(path for path in paths if is_file_path(path)))


def derive_path(
    rng: random.Random,
    segments: Sequence[list[Piece] | None],
    anchored: bool,
    directories_only: bool,
) -> str:
    parts = [] if anchored else [rng.choice(NAMES) for _ in range(rng.randint(0, 2))]
    for segment in segments:
        if segment is None:
            parts.extend(rng.choice(NAMES) for _ in range(rng.randint(0, 2)))
        else:
            parts.append("".join(rng.choice(piece.samples) for piece in segment) or "x")
    if directories_only or rng.random() < 0.3:
        parts.extend(rng.choice(NAMES) for _ in range(rng.randint(1, 2)))
    path = "/".join(parts)
    if path and rng.random() < 0.25:  # a near miss
        at = rng.randrange(len(path))
        path = path[:at] + rng.choice("a/.é]") + path[at + 1 :]
    return path


def is_file_path(path: str) -> bool:
    """What a site's file can be called: no empty, "." or ".." segment."""
    return bool(path) and all(part not in ("", ".", "..") for part in path.split("/"))


def sweep(seed: int, count: int, pieces: Sequence[Piece]) -> Iterator[Generated]:
    rng = random.Random(seed)
    for _ in range(count):
        yield generate(rng, pieces)


def sitemill_verdict(pattern: str, path: str) -> Verdict:
    try:
        return compile_glob(pattern).matches(path)
    except GlobSyntaxError:
        return "error"


def pathspec_spec(pattern: str) -> GitIgnoreSpec:
    # pathspec hands a class's text to Python's re, which warns about future set syntax
    # ("[[", "&&", "--"); such patterns still compile as they did.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)
        return GitIgnoreSpec.from_lines([pattern])


def pathspec_verdict(pattern: str, path: str) -> Verdict:
    try:
        return pathspec_spec(pattern).match_file(path)
    except (ValueError, re.error):  # pathspec's GitIgnorePatternError is a ValueError
        return "error"


def matches_here_or_above(glob: Glob, path: str) -> bool:
    """Whether ``glob`` matches the path or one of its directories: what git would ignore."""
    parts = path.split("/")
    return any(glob.matches("/".join(parts[:depth])) for depth in range(1, len(parts) + 1))


def differs_by_design(pattern: str) -> bool:
    """Whether the pattern's text puts it in a class of DIFFERENCES that pathspec and sitemill
    read apart on every path: leading whitespace, a leading "#", a backslash inside a class,
    whitespace after a trailing escaped space."""
    return (
        pattern[:1].isspace()
        or pattern.startswith("#")
        or any("\\" in members for members in CLASS.findall(pattern))
        or re.search(r"\\ \s+$", pattern) is not None
    )


def pathspec_may_overmatch(pattern: str) -> bool:
    """pathspec's two over-matches (DIFFERENCES): a negated class or a range across "/" can
    match "/", and "X/**/" takes in the files directly in X."""
    names_then_any_directory = pattern.rstrip().endswith("**/") and any(
        segment not in ("", "**") for segment in pattern.split("/")
    )
    return names_then_any_directory or any(
        members[:1] in ("!", "^") or any(low < "/" < high for low, high in RANGE.findall(members))
        for members in CLASS.findall(pattern)
    )


def assert_agreement(pattern: str, paths: Sequence[str], tally: dict[str, int]) -> None:
    glob = compile_glob(pattern)
    spec = pathspec_spec(pattern)
    overmatch = pathspec_may_overmatch(pattern)
    for path in paths:
        ours = matches_here_or_above(glob, path)
        theirs = spec.match_file(path)
        tally["matched"] += ours
        tally["compared"] += 1
        if overmatch:  # pathspec may say yes where git and sitemill say no, never the reverse
            assert theirs or not ours, (pattern, path)
        else:
            assert ours == theirs, (pattern, path, ours, theirs)


def test_every_glob_of_the_tests_agrees_with_pathspec() -> None:
    tally = {"matched": 0, "compared": 0}
    by_pattern: dict[str, set[str]] = {pattern: set(FIXED_PATHS) for pattern in PATTERNS_FROM_TESTS}
    for pattern, path, _ in GLOB_CASES:
        by_pattern.setdefault(pattern, set(FIXED_PATHS)).add(path)
    for pattern, paths in by_pattern.items():
        if not differs_by_design(pattern):
            assert_agreement(pattern, sorted(paths), tally)
    assert tally["matched"] > 200


def test_a_generated_sweep_agrees_with_pathspec() -> None:
    tally = {"matched": 0, "compared": 0}
    refused = 0
    for pattern, paths in sweep(seed=20240501, count=4000, pieces=PIECES):
        if differs_by_design(pattern):
            continue
        try:
            compile_glob(pattern)
        except GlobSyntaxError as error:  # "a**b" (pieces "*" and "*"), "/ ", " "
            assert str(error).startswith(("'**' must be", "'/' alone", "empty")), pattern
            refused += 1
            continue
        assert_agreement(pattern, [*paths, *FIXED_PATHS[:10]], tally)
    assert tally["compared"] > 40_000
    assert tally["matched"] > tally["compared"] // 10  # the sweep is not all misses
    assert refused < 400


# ---- git itself, the referee -------------------------------------------------------------


@pytest.fixture(scope="module")
def git_repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_repo(tmp_path_factory.mktemp("gitignore"))


def git_ignores(repo: Path, pattern: str, paths: Sequence[str]) -> dict[str, bool]:
    """Which of ``paths`` `git check-ignore` ignores with ``pattern`` as the only rule."""
    excludes = repo / ".git" / "sitemill-excludes"
    excludes.write_bytes(os.fsencode(pattern) + b"\n")
    options = ["-c", f"core.excludesFile={excludes}", "-c", "core.ignoreCase=false"]
    done = subprocess.run(
        ["git", *options, "check-ignore", "--no-index", "-z", "--stdin"],
        cwd=repo,
        env=git_env(),
        input=b"".join(os.fsencode(path) + b"\0" for path in paths),
        capture_output=True,
        check=False,
    )
    assert done.returncode in (0, 1), done.stderr  # 1: nothing ignored
    ignored = {os.fsdecode(name) for name in done.stdout.split(b"\0") if name}
    return {path: path in ignored for path in paths}


def test_a_generated_sweep_agrees_with_git(git_repo: Path) -> None:
    """ASCII only: git matches bytes, so "?" does not match "é" (DIFFERENCES)."""
    pieces = [piece for piece in PIECES if piece.ascii] + list(GIT_ONLY_PIECES)
    matched = 0
    for pattern, paths in sweep(seed=7, count=300, pieces=pieces):
        try:
            glob = compile_glob(pattern)
        except GlobSyntaxError:
            continue
        ascii_paths = [path for path in paths if path.isascii() and path[0] != ":"]
        for path, ignored in git_ignores(git_repo, pattern, ascii_paths).items():
            assert matches_here_or_above(glob, path) == ignored, (pattern, path, ignored)
            matched += ignored
    assert matched > 200


# ---- where they differ -----------------------------------------------------------------


class Difference(NamedTuple):
    pattern: str
    path: str
    git: Verdict
    pathspec: Verdict
    sitemill: Verdict


DIFFERENCES = {
    # git skips whatever is below an ignored directory, so "blog" ignores blog/post.html;
    # pathspec builds that into every pattern. sitemill matches the page's own path: its
    # README gives a trailing "/" for "everything below a directory" and says "*" stays within
    # one segment; read as git does, the default include "**/*.html" would list
    # x.html/logo.png and a [[rules]] "blog/*" would re-rank every deeper page.
    "below a matched directory": [
        Difference("blog", "blog/post.html", True, True, False),
        Difference("blog", "x/blog/y.html", True, True, False),
        Difference("blog/*", "blog/2024/post.html", True, True, False),
        Difference("*.html", "x.html/logo.png", True, True, False),
        Difference("?b", "ab/x.html", True, True, False),
    ],
    # git never lets a class match "/" (wildmatch with WM_PATHNAME); pathspec's negated
    # classes and ranges across "/" do. sitemill follows git.
    "pathspec classes match '/'": [
        Difference("a[!x]b", "a/b", False, True, False),
        Difference("[!a][!a]b", "x/y/b", False, True, False),
        Difference("a[.-0]b", "a/b", False, True, False),
    ],
    # "a/**/" is a directory below a; pathspec folds "**/**" into "**" and so also takes the
    # files directly in a. sitemill follows git.
    "pathspec 'X/**/'": [
        Difference("a/**/", "a/b.html", False, True, False),
        Difference("*/**/**/", "a/b.html", False, True, False),
    ],
    # git escapes with a backslash inside a class too; pathspec reads it as a character.
    # sitemill follows git.
    "backslash inside a class": [
        Difference("[\\*].html", "\\.html", False, True, False),
        Difference("[\\]]x", "]x", True, False, True),
    ],
    # git and pathspec keep leading whitespace (and git a trailing tab); sitemill drops the
    # whitespace around an item, since lists are written "*.html, docs/**" or one per line.
    # "\\ " keeps a space in all three.
    "whitespace around a pattern": [
        Difference(" x", "x", False, False, True),
        Difference(" x", " x", True, True, False),
        Difference("x\t", "x\t", True, False, False),
        Difference("x\t", "x", False, True, True),
    ],
    # git drops the unescaped spaces after an escaped one ("foo\\  " is "foo "); pathspec
    # drops none there and then refuses the lone backslash. sitemill follows git.
    "pathspec refuses": [
        Difference("foo\\  ", "foo ", True, "error", True),
    ],
    # A .gitignore line starting with "#" is a comment; a sitemill list item is never a
    # comment, so "#x" names a file. "\\#x" means the file in all three.
    "comments": [
        Difference("#x", "#x", False, False, True),
    ],
    # git matches bytes: "?" is one byte of the UTF-8 "é". sitemill (and pathspec) match
    # characters, as its README says of "?".
    "bytes or characters": [
        Difference("?.html", "é.html", False, True, True),
        Difference("[é].html", "é.html", False, True, True),
    ],
    # Patterns git reads (often as matching nothing) that sitemill refuses with a reason,
    # rather than silently doing what a user most likely did not mean.
    "sitemill refuses": [
        Difference("a**b", "axyb", True, True, "error"),  # git: "a*b"
        Difference("]x", "]x", True, True, "error"),  # "\\]x" is the character
        Difference("[a/b]", "a", True, False, "error"),  # a class never matches "/"
        Difference("!x", "!x", False, False, "error"),  # negation: use exclude
        Difference("[[:digit:]].html", "1.html", True, False, "error"),  # POSIX classes
        Difference("[z-a]", "b", False, "error", "error"),  # a reversed range
        Difference("[abc", "[abc", False, False, "error"),  # unclosed
        Difference("a\\", "a", False, "error", "error"),
        Difference("/", "a", False, False, "error"),
    ],
}
CASES = [
    pytest.param(difference, id=f"{kind}: {difference.pattern!r} {difference.path!r}")
    for kind, differences in DIFFERENCES.items()
    for difference in differences
]


@pytest.mark.parametrize("difference", CASES)
def test_pinned_differences(difference: Difference, git_repo: Path) -> None:
    pattern, path = difference.pattern, difference.path
    assert git_ignores(git_repo, pattern, [path]) == {path: difference.git}
    assert sitemill_verdict(pattern, path) == difference.sitemill
    assert pathspec_verdict(pattern, path) == difference.pathspec, (
        "pathspec changed its verdict: update DIFFERENCES, and see whether it can now replace "
        "globs.py"
    )
    assert difference.sitemill != difference.git or difference.pathspec != difference.git
