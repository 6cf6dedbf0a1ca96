"""Writing and publishing the files: sitemaps, their commit, takeovers."""
