"""The HTML sitemap for people (html_sitemap): sitemap.html from the listed entries."""
