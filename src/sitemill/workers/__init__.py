"""Work spread over threads and processes, and Ctrl-C with worker processes."""
