-- Why an event was withheld (offline, disabled, paused, panic, due_while_paused), and since
-- when a slot's vibe-coding feed has been paused or disabled: an event that comes due while
-- it is is withheld when the feed is shown again. Slots paused or disabled now count as
-- paused since their last settings change.

-- +goose Up
ALTER TABLE vibe_coding_events ADD COLUMN withheld_reason text;
ALTER TABLE managed_streams ADD COLUMN paused_at timestamptz;
UPDATE managed_streams SET paused_at = updated_at
WHERE broadcast_settings->'vibe_coding'->>'paused' = '1'
   OR broadcast_settings->'vibe_coding'->>'enabled' = '0';

-- +goose Down
ALTER TABLE managed_streams DROP COLUMN paused_at;
ALTER TABLE vibe_coding_events DROP COLUMN withheld_reason;
