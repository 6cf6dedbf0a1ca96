"""The run over each source (tree, urllist, bucket), what a front end asks of it, the features."""
# What a front end asks of any run, built once and taken whole by every variant (asked: RunAsked).
# A file tree (tree, its pages and git history read side by side), a URL list (urllist), an S3
# bucket (bucket, with bucketpass: the listing and one pass over its pages every bucket run
# shares, bucketsite), what every run keeps of what it removed (removedpages), what follows a
# publish (afterpublish: the listed features told, with where they write a file: IndexNow's key
# file in a folder or a bucket), and features: the one list of output features the front ends
# pass down. Sharded and distributed runs are the scale-out wing's (sitemill.scaleout), which
# stands on these.
