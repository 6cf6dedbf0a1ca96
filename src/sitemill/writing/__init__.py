"""Writing and publishing the files: sitemaps, their commit, takeovers."""
# The writer renders entries into sitemaps (writer, with layouts for one file, an index or shards),
# publishes them in one commit (publish), says why an empty run wrote nothing (writer), takes over
# a sitemap sitemill did not write (takeover, generators, sitemapfile: whether a file is a sitemap,
# namedsitemaps: which sitemaps its index names are the generator's own, takeoverfiles: a folder's
# files); an output published with the sitemaps (sitemill.outputs: sitemap.html) renders and goes
# up through the writer's Publisher (layouts.PublishedOutput).
