"""IndexNow: tell search engines which listed URLs were added, changed or removed."""
# ``announce`` (pure) finds them by comparing a run's state with the last one and keeps those not
# yet sent, bounded; ``key`` checks the key and names its file; ``send`` posts them, per host in
# batches, once the key file is live.
