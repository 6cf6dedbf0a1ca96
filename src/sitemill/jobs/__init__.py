"""The three jobs, one module each: a file tree, a URL list, an S3 bucket."""
