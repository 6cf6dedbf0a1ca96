"""Sharded sitemaps: the shard plan (stable key ranges), its manifest, layout, workers' reports."""
# Stable names, so that a small deploy rewrites one child and the index, and adding a page near the
# front renames nothing.
#
# Pure: no I/O. It stands below the writer and the pipeline, which lay entries out by it and ask
# what other shards hold (plan.OtherShards), so it is not inside the scale-out wing
# (sitemill.scaleout), which runs the plan: the writer would then import a folder above it.
