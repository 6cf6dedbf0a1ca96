"""Where pages come from: a file tree, a URL list, an S3 bucket or its S3 Inventory report."""
