"""The shard plan (scale-out.md, "Shards"): key ranges with stable names, so that a small deploy
rewrites one child and the index, and adding a page near the front renames nothing."""
