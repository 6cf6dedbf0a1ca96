"""first-run-cores' exact floor: the CPU of fingerprinting once each blob a first run's state
remembers, in a plain loop (first_run_bench.py)."""
# The state names a blob by its id and, for HTML, a hash of its path (history.walk.blob_key):
# the paths git log ever names give the page's URL its links are resolved from, as the run does,
# and the order the walk reads a page's versions in.

from __future__ import annotations

import gzip
import hashlib
import json
import subprocess
import time
from pathlib import Path

from sitemill.lastmod.fingerprint.digest import PageMemo, fingerprint_file

MAX_BLOB_BYTES = 2 * 1024 * 1024  # (sitemill.lastmod.history.blobs: what a blob is read of)


def remembered_blobs(state: Path) -> list[str]:
    """The state's blob keys: "h" (HTML) or "b", then the blob's id (history.walk.blob_key)."""
    with gzip.open(state) as handle:
        table = json.load(handle)["blobs"]["fingerprints"]
    return [key for key in table if key[:1] in ("h", "b")]


def _versions(checkout: Path) -> dict[str, tuple[str, dict[str, int]]]:
    """Every path git log names in ``checkout``'s history, by blob_key's hash of it, with the
    place of each of its blobs from the newest (the order the walk reads them in)."""
    fields = subprocess.run(
        ["git", "-C", str(checkout), "log", "--format=", "--raw", "--no-abbrev", "--no-renames",
         "-z"],
        capture_output=True, check=True,
    ).stdout.split(b"\0")  # fmt: skip
    found: dict[str, tuple[str, dict[str, int]]] = {}
    for meta, name in zip(fields[::2], fields[1::2], strict=False):
        path = name.decode("utf-8", "surrogateescape")
        where = hashlib.blake2b(path.encode("utf-8", "surrogatepass"), digest_size=4).hexdigest()
        order = found.setdefault(where, (path, {}))[1]
        order.setdefault(meta.split()[3].decode() if meta.startswith(b":") else "", len(order))
    return found


def _read(checkout: Path, ids: list[str]) -> dict[str, bytes]:
    """The first MAX_BLOB_BYTES of each blob of ``ids`` (git cat-file --batch)."""
    out = subprocess.run(
        ["git", "-C", str(checkout), "cat-file", "--batch"],
        input="".join(f"{blob}\n" for blob in ids).encode(), capture_output=True, check=True,
    ).stdout  # fmt: skip
    found, at = {}, 0
    for blob in ids:
        end = out.index(b"\n", at)
        header = out[at:end].split()
        if header[-1] == b"missing":
            at = end + 1
            continue
        size = int(header[2])
        found[blob] = out[end + 1 : end + 1 + min(size, MAX_BLOB_BYTES)]
        at = end + 1 + size + 1
    return found


def blob_floor(state: Path, checkout: Path, base: str) -> tuple[float, int, int]:
    """The CPU seconds of fingerprinting each blob the ``state`` remembers once, as the run
    does (fingerprint_file with the site's ``base`` URL, one PageMemo, each file's versions
    together from the newest), its blobs fingerprinted, and of these the HTML ones whose path
    was not found (fingerprinted as at the site's root)."""
    keys = remembered_blobs(state)
    data = _read(checkout, sorted({key[1:41] for key in keys}))
    versions = _versions(checkout)
    work, lost = [], 0
    for key in keys:
        if key[1:41] not in data:
            continue
        path, order = versions.get(key[42:], ("", {})) if key[0] == "h" else ("blob", {})
        lost += not path
        place = (path, order.get(key[1:41], len(order)))
        work.append((place, path or "index.html", data[key[1:41]]))
    work.sort(key=lambda item: item[0])
    memo = PageMemo()
    started = time.process_time()
    for _, path, blob in work:
        fingerprint_file(path, blob, memo=memo, base=base)
    return time.process_time() - started, len(work), lost
