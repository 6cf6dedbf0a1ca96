"""IndexNow: tell search engines which listed URLs were added, changed or removed."""
# ``feature`` is its door into a run (the output port): the pending list kept with the state, the
# key file and the send once the run has published, and its gate in the check (``_livecheck``: the
# key file live); ``_announce`` (pure) keeps what to announce over what is not sent yet, bounded;
# ``key`` checks the key and names its file; ``_send`` posts them (``_post``: one request), per
# host in batches, once the key file is live; ``run``, ``pending`` and ``outcome``: the record,
# where it is kept and what became of it, for the front ends' `indexnow` and `check` commands.
