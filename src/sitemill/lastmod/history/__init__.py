"""How a page is dated from git history: the walk, blobs, versions, renames, template edits."""
