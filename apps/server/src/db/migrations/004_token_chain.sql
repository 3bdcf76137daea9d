-- A token swapped by GET /validate stays valid for a short grace period (other tabs of the same
-- browser still hold it); logging out revokes the whole chain of swapped predecessors too.
ALTER TABLE auth_tokens ADD COLUMN replaced_by uuid;
CREATE INDEX auth_tokens_replaced_by ON auth_tokens (replaced_by) WHERE replaced_by IS NOT NULL;
