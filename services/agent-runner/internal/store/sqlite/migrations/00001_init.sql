-- +goose Up
CREATE TABLE projects (
    id         TEXT PRIMARY KEY,
    worktree   TEXT NOT NULL,
    vcs        TEXT NOT NULL DEFAULT '',
    created_at INTEGER NOT NULL
);

CREATE TABLE sessions (
    id         TEXT PRIMARY KEY,
    project_id TEXT NOT NULL REFERENCES projects (id),
    owner_id   INTEGER NOT NULL,
    parent_id  TEXT NOT NULL DEFAULT '',
    title      TEXT NOT NULL,
    directory  TEXT NOT NULL,
    agent      TEXT NOT NULL,
    usage      TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
);
CREATE INDEX sessions_owner ON sessions (owner_id, updated_at);

CREATE TABLE messages (
    id         TEXT PRIMARY KEY,
    session_id TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    seq        INTEGER NOT NULL,
    data       TEXT NOT NULL,
    UNIQUE (session_id, seq)
);

CREATE TABLE parts (
    id         TEXT PRIMARY KEY,
    message_id TEXT NOT NULL REFERENCES messages (id) ON DELETE CASCADE,
    session_id TEXT NOT NULL,
    seq        INTEGER NOT NULL,
    data       TEXT NOT NULL,
    UNIQUE (message_id, seq)
);
CREATE INDEX parts_session ON parts (session_id);

CREATE TABLE todos (
    session_id TEXT PRIMARY KEY REFERENCES sessions (id) ON DELETE CASCADE,
    data       TEXT NOT NULL
);

CREATE TABLE permission_rules (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    project_id TEXT NOT NULL,
    owner_id   INTEGER NOT NULL,
    agent      TEXT NOT NULL,
    tool       TEXT NOT NULL,
    pattern    TEXT NOT NULL,
    action     TEXT NOT NULL,
    created_at INTEGER NOT NULL
);
CREATE INDEX permission_rules_scope ON permission_rules (owner_id, project_id, agent);

CREATE TABLE permission_requests (
    id         TEXT PRIMARY KEY,
    session_id TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    owner_id   INTEGER NOT NULL,
    data       TEXT NOT NULL,
    created_at INTEGER NOT NULL
);

-- +goose Down
DROP TABLE permission_requests;
DROP TABLE permission_rules;
DROP TABLE todos;
DROP TABLE parts;
DROP TABLE messages;
DROP TABLE sessions;
DROP TABLE projects;
