"""An independent oracle: when did each source file's reader-visible text last change?

For one source path at HEAD, walk ``git log --follow`` (renames followed, one call per file;
a copy, which ``--follow`` also follows, starts a new file),
read every version with one ``git cat-file --batch`` and find the newest commit whose version's
visible text differs from the version before it (or the commit that added the file). Visible
text: the body after the front matter plus the front matter's ``title`` and ``description``;
a change to other front-matter keys alone is not visible. Two readings are kept:

- ``strict``: the body with line ends normalised and trailing spaces dropped;
- ``words``: the body's words only (any whitespace change is invisible).

Shares no code with sitemill: it plays a careful reader of the repository, not the product.
"""

from __future__ import annotations

import re
import subprocess
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

_GIT = ["git", "-c", "core.hooksPath=/dev/null", "-c", "core.fsmonitor=false"]
_TITLE = re.compile(r"""^(title|description)\s*[:=]\s*(.*?)\s*$""", re.MULTILINE)


@dataclass(frozen=True)
class Change:
    """The commit that last changed a source's visible text."""

    sha: str
    committed: str  # ISO 8601 UTC
    authored: str


@dataclass(frozen=True)
class SourceDates:
    """The oracle's answer for one source file."""

    path: str
    versions: int
    strict: Change | None
    words: Change | None


def visible(text: str) -> tuple[str, str, str]:
    """(title, description, body) of a source as a reader sees it, strictly normalised."""
    text = text.replace("\r\n", "\n").replace("\r", "\n").lstrip("\ufeff")
    meta = ""
    for fence in ("---", "+++"):
        if text.startswith(fence + "\n"):
            end = text.find("\n" + fence, len(fence))
            if end > 0:
                meta = text[len(fence) + 1 : end]
                text = text[end + len(fence) + 1 :]
            break
    fields = {k: v.strip("'\"") for k, v in _TITLE.findall(meta)}
    body = "\n".join(line.rstrip() for line in text.split("\n")).strip()
    return fields.get("title", ""), fields.get("description", ""), body


def words(parts: tuple[str, str, str]) -> tuple[str, ...]:
    """The same text with every whitespace difference gone."""
    return tuple(" ".join(p.split()) for p in parts)


class Blobs:
    """One ``git cat-file --batch`` process for the repository's blobs."""

    def __init__(self, repo: Path) -> None:
        self._proc = subprocess.Popen(
            [*_GIT, "-C", str(repo), "cat-file", "--batch"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
        )

    def read(self, rev: str) -> bytes | None:
        assert self._proc.stdin and self._proc.stdout
        self._proc.stdin.write(rev.encode() + b"\n")
        self._proc.stdin.flush()
        header = self._proc.stdout.readline().split()
        if len(header) < 3:
            return None
        size = int(header[2])
        data = self._proc.stdout.read(size)
        self._proc.stdout.read(1)
        return data

    def close(self) -> None:
        assert self._proc.stdin
        self._proc.stdin.close()
        self._proc.wait()


def _iso(epoch: str) -> str:
    return datetime.fromtimestamp(int(epoch), UTC).isoformat()


def history(repo: Path, path: str) -> list[tuple[str, str, str, str | None]]:
    """(sha, committed, authored, path at that commit or None if deleted), newest first."""
    out = subprocess.run(
        [
            *_GIT,
            "-C",
            str(repo),
            "log",
            "--follow",
            "-M",
            "--name-status",
            "--format=%x00%H %ct %at",
            "--",
            path,
        ],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    rows: list[tuple[str, str, str, str | None]] = []
    for chunk in out.split("\x00")[1:]:
        lines = [line for line in chunk.split("\n") if line.strip()]
        sha, ct, at = lines[0].split()
        name: str | None = None
        copied = False
        for line in lines[1:]:
            cols = line.split("\t")
            name = None if cols[0].startswith("D") else cols[-1]
            copied = cols[0].startswith("C")
        rows.append((sha, _iso(ct), _iso(at), name))
        if copied:  # --follow also follows copies: a copy is a new file, its history starts here
            break
    return rows


def source_dates(repo: Path, path: str, blobs: Blobs) -> SourceDates:
    """The last visible-text change of ``path`` (at HEAD), read both ways."""
    rows = [r for r in history(repo, path) if r[3] is not None]
    texts = []
    for sha, _, _, name in rows:
        data = blobs.read(f"{sha}:{name}")
        texts.append(visible((data or b"").decode("utf-8", "replace")))
    strict = loose = None
    for i, (sha, ct, at, _) in enumerate(rows):
        older = texts[i + 1] if i + 1 < len(texts) else None
        if strict is None and (older is None or older != texts[i]):
            strict = Change(sha, ct, at)
        if loose is None and (older is None or words(older) != words(texts[i])):
            loose = Change(sha, ct, at)
        if strict and loose:
            break
    return SourceDates(path, len(rows), strict, loose)
