"""The content fingerprint: a hash of what a reader sees of a page, by version."""
