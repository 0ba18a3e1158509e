-- Initial schema: accounts, API tokens, stream slots, live streams, vibe-coding sessions and
-- events, chat. Tables are STRICT. Times are INTEGER microseconds since the Unix epoch (UTC),
-- booleans are INTEGER 0/1, JSON is TEXT (token scopes: a JSON array of strings).

-- +goose Up
CREATE TABLE users (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    username      TEXT    NOT NULL,
    password_hash TEXT    NOT NULL,
    created_at    INTEGER NOT NULL
) STRICT;
CREATE UNIQUE INDEX users_username_key ON users (lower(username));

CREATE TABLE api_tokens (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id      INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    name         TEXT    NOT NULL,
    token_hash   BLOB    NOT NULL,
    hint         TEXT    NOT NULL,
    scopes       TEXT    NOT NULL DEFAULT '[]' CHECK (json_valid(scopes)),
    expires_at   INTEGER,
    last_used_at INTEGER,
    revoked_at   INTEGER,
    created_at   INTEGER NOT NULL
) STRICT;
CREATE UNIQUE INDEX api_tokens_token_hash_key ON api_tokens (token_hash);
CREATE INDEX api_tokens_user_id_idx ON api_tokens (user_id, id);

CREATE TABLE managed_streams (
    id                 INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id            INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    slug               TEXT    NOT NULL,
    title              TEXT    NOT NULL,
    broadcast_settings TEXT    NOT NULL DEFAULT '{}' CHECK (json_valid(broadcast_settings)),
    live_stream_id     INTEGER REFERENCES live_streams (id) ON DELETE SET NULL,
    -- last_seq is the seq of the slot's newest event, bumped by the insert transaction.
    last_seq           INTEGER NOT NULL DEFAULT 0,
    created_at         INTEGER NOT NULL,
    updated_at         INTEGER NOT NULL
) STRICT;
CREATE UNIQUE INDEX managed_streams_user_slug_key ON managed_streams (user_id, lower(slug));

CREATE TABLE live_streams (
    id                INTEGER PRIMARY KEY AUTOINCREMENT,
    managed_stream_id INTEGER NOT NULL REFERENCES managed_streams (id) ON DELETE CASCADE,
    started_at        INTEGER NOT NULL,
    ended_at          INTEGER
) STRICT;
CREATE INDEX live_streams_managed_stream_id_idx ON live_streams (managed_stream_id, id);
-- At most one open live stream per slot.
CREATE UNIQUE INDEX live_streams_open_key ON live_streams (managed_stream_id) WHERE ended_at IS NULL;

CREATE TABLE vibe_coding_sessions (
    id                INTEGER PRIMARY KEY AUTOINCREMENT,
    managed_stream_id INTEGER NOT NULL REFERENCES managed_streams (id) ON DELETE CASCADE,
    session_key       TEXT    NOT NULL,
    live_stream_id    INTEGER REFERENCES live_streams (id) ON DELETE SET NULL,
    publisher         TEXT    NOT NULL DEFAULT '{}' CHECK (json_valid(publisher)),
    status            TEXT    NOT NULL CHECK (status IN ('active', 'ended')),
    started_at        INTEGER NOT NULL,
    last_seen_at      INTEGER NOT NULL,
    last_event_at     INTEGER,
    ended_at          INTEGER
) STRICT;
CREATE UNIQUE INDEX vibe_coding_sessions_slot_key ON vibe_coding_sessions (managed_stream_id, session_key);
CREATE INDEX vibe_coding_sessions_last_seen_idx ON vibe_coding_sessions (managed_stream_id, last_seen_at);
CREATE INDEX vibe_coding_sessions_active_idx ON vibe_coding_sessions (last_seen_at) WHERE status = 'active';

CREATE TABLE vibe_coding_events (
    id                 INTEGER PRIMARY KEY AUTOINCREMENT,
    managed_stream_id  INTEGER NOT NULL REFERENCES managed_streams (id) ON DELETE CASCADE,
    seq                INTEGER NOT NULL CHECK (seq > 0),
    session_id         INTEGER NOT NULL REFERENCES vibe_coding_sessions (id) ON DELETE CASCADE,
    event_id           TEXT    NOT NULL,
    event_type         TEXT    NOT NULL,
    visibility         TEXT    NOT NULL CHECK (visibility IN ('public', 'streamer')),
    live_stream_id     INTEGER REFERENCES live_streams (id) ON DELETE SET NULL,
    payload            TEXT    NOT NULL,
    occurred_at        INTEGER,
    received_at        INTEGER NOT NULL,
    withheld           INTEGER NOT NULL DEFAULT 0 CHECK (withheld IN (0, 1)),
    retracted_at       INTEGER,
    retracted_by       INTEGER REFERENCES users (id) ON DELETE SET NULL,
    first_delivered_at INTEGER
) STRICT;
CREATE UNIQUE INDEX vibe_coding_events_event_id_key ON vibe_coding_events (managed_stream_id, event_id);
CREATE UNIQUE INDEX vibe_coding_events_seq_key ON vibe_coding_events (managed_stream_id, seq);
CREATE INDEX vibe_coding_events_received_at_idx ON vibe_coding_events (received_at);
CREATE INDEX vibe_coding_events_session_id_idx ON vibe_coding_events (session_id);

CREATE TABLE chat_messages (
    id                INTEGER PRIMARY KEY AUTOINCREMENT,
    managed_stream_id INTEGER NOT NULL REFERENCES managed_streams (id) ON DELETE CASCADE,
    user_id           INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    body              TEXT    NOT NULL,
    created_at        INTEGER NOT NULL
) STRICT;
CREATE INDEX chat_messages_slot_idx ON chat_messages (managed_stream_id, id);

-- +goose Down
DROP TABLE chat_messages;
DROP TABLE vibe_coding_events;
DROP TABLE vibe_coding_sessions;
DROP TABLE live_streams;
DROP TABLE managed_streams;
DROP TABLE api_tokens;
DROP TABLE users;
