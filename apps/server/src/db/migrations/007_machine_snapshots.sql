-- The lobby's picture of each machine: the latest still of its screen its cabinet sent (in the
-- database, so every server of a cluster serves it, whichever holds the cabinet's connection).
CREATE TABLE machine_snapshots (
  machine_id integer PRIMARY KEY REFERENCES machines(id),
  taken_at   timestamptz NOT NULL DEFAULT now(),
  jpeg       bytea NOT NULL
);
