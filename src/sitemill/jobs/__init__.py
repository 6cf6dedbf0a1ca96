"""The three jobs, one module each: a file tree, a URL list, an S3 bucket."""
# A file tree (tree, with treehistory and treereads: its pages and git history read side by side), a
# URL list (urllist), an S3 bucket (bucket, with bucketpass: one pass over its pages, bucketsite,
# bucketkey, buckettakeover, fitsrouter: whether a site fits one function run) and what follows a
# publish (afterpublish). Sharded and distributed runs are the scale-out wing's (sitemill.scaleout),
# which stands on these.
