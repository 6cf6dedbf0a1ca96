"""The smallest section whose pages' shared edit is template (a git history, a bucket deploy)."""
# Its own module so that a bucket's deploy edits (lastmod.deploys) read it without importing
# the git walk (history.probes, which names its stops with it).

from typing import Final

# A section of fewer pages has no "most": each page is its own evidence.
MIN_SECTION: Final = 4
# The fewest pages of a section whose one edit of the text's words is template by the section's
# census (history.sectioncensus): an author copies a note by hand onto a handful of pages (four
# guides of a section given one identical note: Python-Markdown's), a theme writes its words on
# every page of a layout (a line "Mode: In-Person" on 57 of a section's 88 talks, a "Mastodon"
# link put in an author sidebar on 14 of 15 posts: aea). Twice MIN_SECTION.
WORDED_LEAST: Final = 2 * MIN_SECTION
