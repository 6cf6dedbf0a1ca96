"""The smallest section whose pages' shared edit is template (a git history, a bucket deploy)."""
# Its own module so that a bucket's deploy edits (lastmod.deploys) read it without importing
# the git walk (history.probes, which names its stops with it).

from typing import Final

# A section of fewer pages has no "most": each page is its own evidence.
MIN_SECTION: Final = 4
