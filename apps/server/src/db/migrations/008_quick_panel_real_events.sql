-- The demo seed announced a "Happy hour" (discount doubles 20:00-22:00) that the product never
-- implemented; the quick panel shows only real events (docs/spec-decisions.md).
DELETE FROM quick_panel_items
 WHERE player_id IS NULL AND kind = 'event' AND title = 'Happy hour'
   AND detail = 'Discount doubles between 20:00 and 22:00';
