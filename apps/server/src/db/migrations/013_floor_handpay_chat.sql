-- Issue 27, the operator console's floor, hand pays and support chat.

-- Support chat: staff are the agents behind one support desk contact. The four invented agents go
-- (those a player already talked to stay, offline, so the history remains readable).
INSERT INTO chat_agents (id, name, avatar, status, mood) VALUES ('support', 'Support', '', 'offline', '')
  ON CONFLICT (id) DO NOTHING;
DELETE FROM chat_agents a
 WHERE a.id IN ('support-1', 'support-2', 'support-3', 'support-4')
   AND NOT EXISTS (SELECT 1 FROM chat_messages m WHERE m.agent_id = a.id);
UPDATE chat_agents SET status = 'offline' WHERE id <> 'support';

-- Each staff member's chat status; the desk shows the best of them. operator_id is the operator
-- account's id (the console's sign-in), name as shown in the staff view.
CREATE TABLE staff_chat_presence (
  operator_id integer PRIMARY KEY,
  name        text NOT NULL,
  status      text NOT NULL CHECK (status IN ('online', 'do-not-disturb', 'away', 'offline')),
  updated_at  timestamptz NOT NULL DEFAULT now()
);

-- Who wrote an agent line: a staff member (operator id and name), or NULL for the automatic line.
ALTER TABLE chat_messages ADD COLUMN operator_id integer, ADD COLUMN operator_name text;
CREATE INDEX chat_messages_recent ON chat_messages (player_id, id DESC);
