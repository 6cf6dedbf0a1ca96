"""The run over each source (tree, urllist, bucket), what a front end asks of it, the features."""
# Sharded and distributed runs are the scale-out wing's (sitemill.scaleout), which stands on these.
