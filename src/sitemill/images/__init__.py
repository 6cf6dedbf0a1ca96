"""Which images a sitemap lists: each page's (on the site's hosts, with a file in the site),
and, across the site, the chrome every page shows (a logo), left out; the rest counted."""
