"""The one rule for every deletion: a file goes only when its own bytes prove sitemill wrote it."""
# A state, a manifest, a restored cache or a copy from another site is a claim from outside: anyone
# who can write the bucket or the folder can write one, and it can name any file. So no name is
# deleted because a record names it. Every path that deletes asks ``may_delete`` with the file's
# bytes as they are now (read bounded, by the sink):
#
# - a sitemap (a child, an index: sitemill's own names, a group's child): its bytes' MD5 is the
#   one sitemill's record holds for that name (``digests`` in the state, taken when it wrote them).
#   No record, no proof: the file stays (an earlier sitemill's state kept none in a tree).
# - an output feature's file (llms.txt, llms-full.txt, a Markdown twin: sitemill.outputs): the
#   recorded MD5, and the form the feature writes there, as the feature proves it (its own_file:
#   the llms files' mark, llms-full.txt's head for this site, a twin whole in its form).
# - a generator's sitemap that goes with the one sitemill replaces (writing.takeover, the
#   ``replaced`` claim): its root element is urlset or sitemapindex in the sitemaps.org namespace
#   (writing.sitemapfile). Those files are not sitemill's, and are deleted only because they
#   would contradict sitemill's sitemaps.
# - a shard's file or state in a bucket with a partitioned state, under the name its content gives
#   (sitemap-r<id>-<version>.xml, shards/r<id>-<version>.json.gz: shards.manifest.child_version):
#   the name is the proof, its version the one the MD5 of its bytes gives. A manifest's word that
#   such a file is a failed run's, or retired, proves nothing; a name of any other shape that no
#   record proves stays (scaleout.shardcollect).
# - a child of a group that only a state remembers (no configuration names it) is proven by its
#   record even when a live index names it: that index's own bytes are the user's to write.
# Files the live index of sitemill's names (writing.liveindex: an index whose every child is one
# of sitemill's names) and this run's own staging copies are proven by what this run read and
# wrote, not by a record (writing.publish).

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from typing import Protocol

from sitemill.writing.sitemapfile import HEAD_BYTES, sitemap_root


class OwnFiles(Protocol):
    """An output feature's part in a deletion (sitemill.outputs): what proves a file its own."""

    def own_file(self, name: str, data: bytes, base_url: str) -> bool | None:
        """Whether ``data``, at ``name`` and with the MD5 sitemill recorded for it, is in the
        form the feature writes there (``base_url``: the site's); None: no name of its."""
        ...


def may_delete(
    name: str,
    data: bytes | None,
    recorded: str | None = None,
    *,
    base_url: str = "",
    replaced: bool = False,
    outputs: Iterable[OwnFiles] = (),
) -> bool:
    """Whether ``data``, the bytes of the file at ``name`` now (None: gone or not readable),
    prove sitemill may delete it (the rules in the module's comment). ``recorded``: the MD5
    sitemill's record holds for ``name`` (None: none); ``base_url``: the site's, which
    an output feature's file names; ``replaced``: a generator's sitemap that goes with the one
    sitemill replaces in this run; ``outputs``: the output features the run lists, each
    asked whether ``name`` is one of its files and its bytes in its form."""
    if data is None:
        return False
    if replaced:
        return sitemap_root(data[:HEAD_BYTES]) is not None
    from sitemill.shards.manifest import names_its_content  # (a page's event deletes nothing)

    if names_its_content(name, data):
        return True
    if recorded is None or hashlib.md5(data, usedforsecurity=False).hexdigest() != recorded:
        return False
    for output in outputs:
        if (proven := output.own_file(name, data, base_url)) is not None:
            return proven
    return True
