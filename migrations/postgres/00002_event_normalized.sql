-- What the gateway normalised in each event (field → the value the publisher sent), kept for
-- the owner beside the canonical payload; NULL when the event was canonical as sent. json,
-- like the payload, so the record's field order is kept.

-- +goose Up
ALTER TABLE vibe_coding_events ADD COLUMN normalized json;

-- +goose Down
ALTER TABLE vibe_coding_events DROP COLUMN normalized;
