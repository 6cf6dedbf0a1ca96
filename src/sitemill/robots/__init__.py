"""robots.txt: the rules it gives crawlers (rules), and sitemill's ``Sitemap:`` lines (lines)."""
# The rules a site's robots.txt gives crawlers, and sitemill's own ``Sitemap:`` lines kept in it.
