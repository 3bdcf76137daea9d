-- Session ownership by shard in a cluster (docs/scale.md, issue 31). Machines fall into a fixed
-- number of shards (machine id mod the count); each shard is owned by one server at a time through
-- a PostgreSQL advisory lock (key pair 'reel', shard) held on that server's lease connection, which
-- decides. This table shows who owns each shard since when, and counts takeovers: `epoch` grows by
-- one each time a server takes the shard, so an operator (and the race test) can see every handover.
CREATE TABLE IF NOT EXISTS cluster_shards (
  shard integer PRIMARY KEY,
  owner text NOT NULL,
  since timestamptz NOT NULL DEFAULT now(),
  epoch bigint NOT NULL DEFAULT 1
);
