"""The scale-out wing: sharded runs of the router, full sharded rebuilds, Step Functions steps."""
# The router's shard worker and publisher, the full sharded rebuild, the Step Functions steps (plan,
# shuffle, shard, reduce), their executor and run files. Each run over a partitioned state is a
# ShardedRun (partitionedstore) carrying the RunAsked of its front end.
#
# It uses the jobs (jobs.asked, jobs.bucketpass, jobs.bucketsite) and the pure plan
# (sitemill.shards); no job and no core module imports it, and it imports no front end
# (tests/core/test_layout.py).
