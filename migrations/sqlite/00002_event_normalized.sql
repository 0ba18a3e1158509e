-- What the gateway normalised in each event (field → the value the publisher sent), kept for
-- the owner beside the canonical payload; NULL when the event was canonical as sent.

-- +goose Up
ALTER TABLE vibe_coding_events ADD COLUMN normalized TEXT;

-- +goose Down
ALTER TABLE vibe_coding_events DROP COLUMN normalized;
