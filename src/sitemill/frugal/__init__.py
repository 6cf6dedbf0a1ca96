"""Helpers that save memory and cores: URLs remembered in a few bytes each (dedupe),
repeats found on a second core (repeatfinder), entries spooled to disk (spool), work spread
over worker processes (workpool), a generator's thread pool (threadpool),
gzip inflated no further than a bound (inflate).
"""
