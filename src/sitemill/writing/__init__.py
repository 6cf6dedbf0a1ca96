"""Writing and publishing the files: the writer renders entries into sitemaps (writer, with
layouts for one file, an index or shards), publishes them in one commit (publish), says why
an empty run wrote nothing (emptyrun), takes a generator's sitemap over (takeover,
generators) and writes the HTML sitemap page (htmlmap).
"""
