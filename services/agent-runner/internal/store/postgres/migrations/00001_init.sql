-- +goose Up
CREATE TABLE agent_projects (
    id         TEXT PRIMARY KEY,
    worktree   TEXT NOT NULL,
    vcs        TEXT NOT NULL DEFAULT '',
    created_at TIMESTAMPTZ NOT NULL
);

CREATE TABLE agent_sessions (
    id         TEXT PRIMARY KEY,
    project_id TEXT NOT NULL REFERENCES agent_projects (id),
    owner_id   BIGINT NOT NULL,
    parent_id  TEXT NOT NULL DEFAULT '',
    title      TEXT NOT NULL,
    directory  TEXT NOT NULL,
    agent      TEXT NOT NULL,
    usage      JSONB NOT NULL,
    created_at TIMESTAMPTZ NOT NULL,
    updated_at TIMESTAMPTZ NOT NULL
);
CREATE INDEX agent_sessions_owner ON agent_sessions (owner_id, updated_at);
CREATE INDEX agent_sessions_parent ON agent_sessions (parent_id);

CREATE TABLE agent_messages (
    seq        BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    id         TEXT NOT NULL UNIQUE,
    session_id TEXT NOT NULL REFERENCES agent_sessions (id) ON DELETE CASCADE,
    data       JSONB NOT NULL
);
CREATE INDEX agent_messages_session ON agent_messages (session_id, seq);

CREATE TABLE agent_parts (
    seq        BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    id         TEXT NOT NULL UNIQUE,
    message_id TEXT NOT NULL REFERENCES agent_messages (id) ON DELETE CASCADE,
    session_id TEXT NOT NULL,
    data       JSONB NOT NULL
);
CREATE INDEX agent_parts_session ON agent_parts (session_id, seq);

CREATE TABLE agent_todos (
    session_id TEXT PRIMARY KEY REFERENCES agent_sessions (id) ON DELETE CASCADE,
    data       JSONB NOT NULL
);

CREATE TABLE agent_permission_rules (
    id         BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    project_id TEXT NOT NULL,
    owner_id   BIGINT NOT NULL,
    agent      TEXT NOT NULL,
    tool       TEXT NOT NULL,
    pattern    TEXT NOT NULL,
    action     TEXT NOT NULL,
    created_at TIMESTAMPTZ NOT NULL
);
CREATE INDEX agent_permission_rules_scope ON agent_permission_rules (owner_id, project_id, agent);

CREATE TABLE agent_permission_requests (
    id         TEXT PRIMARY KEY,
    session_id TEXT NOT NULL REFERENCES agent_sessions (id) ON DELETE CASCADE,
    owner_id   BIGINT NOT NULL,
    data       JSONB NOT NULL,
    created_at TIMESTAMPTZ NOT NULL
);

-- +goose Down
DROP TABLE agent_permission_requests;
DROP TABLE agent_permission_rules;
DROP TABLE agent_todos;
DROP TABLE agent_parts;
DROP TABLE agent_messages;
DROP TABLE agent_sessions;
DROP TABLE agent_projects;
