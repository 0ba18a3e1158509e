-- Prompts sent while their session was busy, in the order they run. (Version 2 was SQLite's
-- parent_id index, which the PostgreSQL schema had from the start.)
-- +goose Up
CREATE TABLE agent_queued_prompts (
    id         TEXT PRIMARY KEY,
    session_id TEXT NOT NULL REFERENCES agent_sessions (id) ON DELETE CASCADE,
    owner_id   BIGINT NOT NULL,
    seq        BIGINT NOT NULL,
    data       JSONB NOT NULL,
    created_at TIMESTAMPTZ NOT NULL
);
CREATE INDEX agent_queued_prompts_session ON agent_queued_prompts (session_id, seq);

-- +goose Down
DROP TABLE agent_queued_prompts;
