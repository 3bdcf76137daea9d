-- Who owns the sessions in a cluster, since when (docs/scale.md). Informational: the owner holds a
-- PostgreSQL advisory lock, which decides; this row only shows it to /check and the operator.
CREATE TABLE IF NOT EXISTS cluster_lease (
  name text PRIMARY KEY,
  owner text NOT NULL,
  since timestamptz NOT NULL DEFAULT now()
);
