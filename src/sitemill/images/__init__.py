"""Which images a sitemap lists: each page's, less the site chrome; the rest counted."""
# Each page's images on the site's hosts, with a file in the site; across the site, the chrome every
# page shows (a logo) is left out.
