"""robots.txt: the rules a site's robots.txt gives crawlers (rules), and sitemill's own
``Sitemap:`` lines kept in it (lines).
"""
