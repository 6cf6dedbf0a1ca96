"""Work spread over threads and processes, Ctrl-C with worker processes, the collector paced."""
