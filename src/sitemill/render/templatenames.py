"""The built-in templates' names (also the names a templates_dir's own versions take), and the
most a template file may hold."""

from typing import Final

URLSET_TEMPLATE: Final = "urlset.xml.j2"
INDEX_TEMPLATE: Final = "sitemapindex.xml.j2"
TEXT_TEMPLATE: Final = "text.txt.j2"
HTML_TEMPLATE: Final = "sitemap.html.j2"
# A template is markup: far below this. Bigger files, or ones that are not regular files
# (a FIFO, a device), are refused rather than read (a sharded run hashes them as unreadable).
MAX_TEMPLATE_BYTES: Final = 1024 * 1024
