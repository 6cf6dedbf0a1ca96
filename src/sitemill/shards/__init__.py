"""Sharded sitemaps: the shard plan (stable key ranges), its manifest, layout, workers' reports."""
# Pure: no I/O. It stands below the writer and the pipeline, which lay entries out by it, so it is
# not inside the scale-out wing (sitemill.scaleout), which runs the plan.
