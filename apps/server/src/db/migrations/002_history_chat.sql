-- History pages walk (started_at, id) and operation ids backwards; support chat counts unread agent
-- messages per contact on every contact list, and keeps the player's own chat status and mood.

-- Keyset pagination over sessions needs the id as a tie-breaker inside the index.
CREATE INDEX slot_sessions_player_keyset ON slot_sessions (player_id, started_at DESC, id DESC);

-- Unread counts touch only the few unread agent messages, not the whole thread.
CREATE INDEX chat_messages_unread ON chat_messages (player_id, agent_id)
  WHERE NOT from_player AND read_at IS NULL;

-- A player's presence in the support chat; absent row means online with no mood.
CREATE TABLE chat_profiles (
  player_id  integer PRIMARY KEY REFERENCES players(id),
  status     text NOT NULL DEFAULT 'online' CHECK (status IN ('online', 'do-not-disturb', 'away', 'offline')),
  mood       text NOT NULL DEFAULT '' CHECK (length(mood) <= 200),
  updated_at timestamptz NOT NULL DEFAULT now()
);
