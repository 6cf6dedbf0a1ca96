"""The built-in templates' names (also the names a templates_dir's own versions take)."""

from typing import Final

URLSET_TEMPLATE: Final = "urlset.xml.j2"
INDEX_TEMPLATE: Final = "sitemapindex.xml.j2"
TEXT_TEMPLATE: Final = "text.txt.j2"
HTML_TEMPLATE: Final = "sitemap.html.j2"
