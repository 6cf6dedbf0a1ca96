"""Staging rendered children in a temporary folder, each written while the next one renders."""

from __future__ import annotations

import gzip
from collections import deque
from collections.abc import Callable, Iterator
from concurrent.futures import Future
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Final

from sitemill.render.rendered import RenderedSitemap
from sitemill.report import WriteResult
from sitemill.workers.threadpool import interruptible_pool
from sitemill.writing.layouts import Out, note_sitemap

# Fixed compression level and mtime 0: the same input gives the same bytes.
_GZIP_LEVEL: Final = 6


@dataclass(frozen=True, slots=True)
class StagedFile:
    """A staged child: its name and the <lastmod> its index gives it."""

    name: str
    lastmod: str | None  # the newest page's, then (with a state) when its bytes changed


def stage_children(
    rendered: Iterator[tuple[str, RenderedSitemap]],
    staging: Path,
    out: Out,
    on_file: Callable[[str, int], None] | None,
) -> list[StagedFile]:
    """Stage each of ``rendered`` in the folder ``staging``; count it in ``out.result``."""
    config, result, check = out.config, out.result, out.renderer.check
    stage = partial(_stage_file, compress=config.gzip, result=result, digest=out.digests)
    children: list[StagedFile] = []
    # Compressing and writing a child (zlib and file I/O release the GIL) overlaps with
    # rendering the next one; at most two children are held in memory at a time.
    with interruptible_pool(1, "sitemill-stage") as pool:
        pending: deque[Future[None]] = deque()
        for name, sitemap in rendered:
            check(name, sitemap)
            pending.append(pool.submit(stage, staging / name, sitemap))
            children.append(StagedFile(name, sitemap.lastmod))
            result.files.append(name)
            result.url_count += sitemap.url_count
            if on_file is not None:
                on_file(name, result.url_count)
            while len(pending) > 1:
                pending.popleft().result()
            del sitemap  # only the staging thread holds this file now
        for future in pending:
            future.result()
    return children


def _stage_file(
    path: Path, sitemap: RenderedSitemap, *, compress: bool, result: WriteResult, digest: bool
) -> None:
    if compress:
        data = gzip.compress(sitemap.data, compresslevel=_GZIP_LEVEL, mtime=0)
        path.write_bytes(data)
        note_sitemap(result, path.name, data, sitemap, digest=digest)
        return
    with path.open("wb") as file:  # in its parts: the file is never copied whole
        file.writelines(sitemap.parts)
    note_sitemap(result, path.name, sitemap.parts, sitemap, digest=digest)
