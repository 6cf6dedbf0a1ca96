"""The built-in Jinja templates (urlset, sitemapindex, text), shipped as package data."""
