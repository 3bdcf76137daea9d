-- Issue 27, the operator console's floor, hand pays and support chat.

-- Support chat: staff are the agents behind one support desk contact. The four invented agents go
-- (those a player already talked to stay, offline, so the history remains readable).
INSERT INTO chat_agents (id, name, avatar, status, mood) VALUES ('support', 'Support', '', 'offline', '')
  ON CONFLICT (id) DO NOTHING;
DELETE FROM chat_agents a
 WHERE a.id IN ('support-1', 'support-2', 'support-3', 'support-4')
   AND NOT EXISTS (SELECT 1 FROM chat_messages m WHERE m.agent_id = a.id);
UPDATE chat_agents SET status = 'offline' WHERE id <> 'support';

-- Each staff member's chat status; the desk shows the best of them (name: the operator's username).
CREATE TABLE staff_chat_presence (
  operator_id integer PRIMARY KEY REFERENCES operators(id),
  name        text NOT NULL,
  status      text NOT NULL CHECK (status IN ('online', 'do-not-disturb', 'away', 'offline')),
  updated_at  timestamptz NOT NULL DEFAULT now()
);

-- Who wrote an agent line: a staff member (operator id and name), or NULL for the automatic line.
ALTER TABLE chat_messages ADD COLUMN operator_id integer REFERENCES operators(id), ADD COLUMN operator_name text;
CREATE INDEX chat_messages_recent ON chat_messages (player_id, id DESC);

-- Floor: a machine staff took out of service (why), and an emergency stop in force
-- ({ reason, at, by }); NULL when none. New sessions are refused on either; the cabinet keeps its
-- own copy of the stop (critical memory) and refuses every command while it holds.
ALTER TABLE machines ADD COLUMN out_of_service text, ADD COLUMN emergency_stop jsonb;

-- Hand pays: a win at or above HAND_PAY_LIMIT is taken off the meter (the machine's hand pay cash
-- out) into the house's keeping and waits here until staff approve; at or above
-- HAND_PAY_SECOND_SIGNER a second, different staff member must approve too. One row per hand pay
-- command (the game that asked for it); the state machine only moves waiting → paid, once, in the
-- transaction that pays it through the ledger and writes the approval's audit row.
CREATE TABLE hand_pays (
  id                 bigserial PRIMARY KEY,
  command_id         text NOT NULL UNIQUE,
  machine_id         integer NOT NULL REFERENCES machines(id),
  session_id         uuid NOT NULL REFERENCES slot_sessions(id),
  player_id          integer NOT NULL REFERENCES players(id),
  amount_cents       bigint NOT NULL CHECK (amount_cents > 0),
  needs_second       boolean NOT NULL,
  status             text NOT NULL DEFAULT 'waiting' CHECK (status IN ('waiting', 'paid')),
  requested_at       timestamptz NOT NULL DEFAULT now(),
  first_signer       text,
  first_signed_at    timestamptz,
  second_signer      text,
  paid_at            timestamptz,
  CHECK (second_signer IS NULL OR (first_signer IS NOT NULL AND second_signer <> first_signer)),
  CHECK (status = 'waiting' OR (paid_at IS NOT NULL AND first_signer IS NOT NULL AND (NOT needs_second OR second_signer IS NOT NULL)))
);
CREATE INDEX hand_pays_waiting ON hand_pays (requested_at) WHERE status = 'waiting';
