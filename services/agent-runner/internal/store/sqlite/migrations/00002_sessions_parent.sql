-- Deleting a session walks its forks and subagent children by parent_id.
-- +goose Up
CREATE INDEX sessions_parent ON sessions (parent_id);

-- +goose Down
DROP INDEX sessions_parent;
