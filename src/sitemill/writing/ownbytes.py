"""The one rule for every deletion: a file goes only when its own bytes prove sitemill wrote it."""
# A state, a manifest, a restored cache or a copy from another site is a claim from outside: anyone
# who can write the bucket or the folder can write one, and it can name any file. So no name is
# deleted because a record names it. Every path that deletes asks ``may_delete`` with the file's
# bytes as they are now (read bounded, by the sink):
#
# - a sitemap (a child, an index: sitemill's own names, a group's child): its bytes' MD5 is the
#   one sitemill's record holds for that name (``digests`` in the state, taken when it wrote them).
#   No record, no proof: the file stays (an earlier sitemill's state kept none in a tree).
# - llms.txt: the recorded MD5, and sitemill's mark where it writes it (llms.files).
# - llms-full.txt: the recorded MD5, and the head sitemill writes for this site (its name, the
#   line naming this site's sitemap, the mark: llms.full).
# - a Markdown twin: the recorded MD5, and its whole text in the form sitemill writes
#   (llms.twins: ``# Title``, a blank line, the mark, the page's Markdown, one final LF). A user's
#   Markdown that quotes the mark on a line of its own is not in that form, and stays.
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
from pathlib import PurePosixPath

from sitemill.filenames.outputs import LLMS_FULL, LLMS_TXT, MARKDOWN_SUFFIX
from sitemill.writing.sitemapfile import HEAD_BYTES, sitemap_root


def may_delete(
    name: str,
    data: bytes | None,
    recorded: str | None = None,
    *,
    base_url: str = "",
    replaced: bool = False,
) -> bool:
    """Whether ``data``, the bytes of the file at ``name`` now (None: gone or not readable),
    prove sitemill may delete it (the rules in the module's comment). ``recorded``: the MD5
    sitemill's record holds for ``name`` (None: none); ``base_url``: the site's, which
    llms-full.txt names; ``replaced``: a generator's sitemap that goes with the one sitemill
    replaces in this run."""
    if data is None:
        return False
    if replaced:
        return sitemap_root(data[:HEAD_BYTES]) is not None
    from sitemill.shards.manifest import names_its_content  # (a page's event deletes nothing)

    if names_its_content(name, data):
        return True
    if recorded is None or hashlib.md5(data, usedforsecurity=False).hexdigest() != recorded:
        return False
    if PurePosixPath(name).name == LLMS_TXT or name == LLMS_FULL or name.endswith(MARKDOWN_SUFFIX):
        from sitemill.llms.ownership import proves_llms_file  # (llms.txt's kin: their form)

        return proves_llms_file(name, data, base_url)
    return True
