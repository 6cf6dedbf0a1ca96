"""IndexNow: tell search engines which listed URLs were added, changed or removed."""
# ``feature`` is its door into a run (the output port); ``run``: the front ends' `indexnow`.
