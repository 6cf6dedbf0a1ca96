"""Writing and publishing the files: sitemaps, their commit, takeovers, the HTML sitemap."""
# The writer renders entries into sitemaps (writer, with layouts for one file, an index or shards),
# publishes them in one commit (publish), says why an empty run wrote nothing (emptyrun), takes over
# a sitemap sitemill did not write (takeover, generators, sitemapfile: whether a file is a sitemap,
# namedsitemaps: which sitemaps its index names are the generator's own, takeoverfiles: a folder's
# files) and writes the HTML sitemap page (htmlmap).
