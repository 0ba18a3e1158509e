-- Prompts sent while their session was busy, in the order they run.
-- +goose Up
CREATE TABLE queued_prompts (
    id         TEXT PRIMARY KEY,
    session_id TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    owner_id   INTEGER NOT NULL,
    seq        INTEGER NOT NULL,
    data       TEXT NOT NULL,
    created_at INTEGER NOT NULL
);
CREATE INDEX queued_prompts_session ON queued_prompts (session_id, seq);

-- +goose Down
DROP TABLE queued_prompts;
