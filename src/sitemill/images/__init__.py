"""Which images a sitemap lists: each page's, less the site chrome; the rest counted."""
