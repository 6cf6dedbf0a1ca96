"""The state: what the last run saw and remembers (facts, dates, removed URLs), where it lives."""
# The model and its bounded and checked reading, the facts remembered per object version, content
# dating, and where it lives (a file, beside the sitemaps, an S3 object, a live site's copy as the
# previous state).
