-- The player's avatar (spec section 3 "photoURL"): a picture URL the operator sets
-- (`operator set-avatar`); NULL shows the initial of the name. 011, not 010: another change
-- under way takes 010.
ALTER TABLE players ADD COLUMN photo_url text;
