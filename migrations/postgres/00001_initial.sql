-- Initial schema: accounts, API tokens, stream slots, live streams, vibe-coding sessions and
-- events, chat. Times are timestamptz (microseconds); JSON settings are jsonb, event payloads
-- are json so the sanitized bytes are returned exactly as stored.

-- +goose Up
CREATE TABLE users (
    id            bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    username      text        NOT NULL,
    password_hash text        NOT NULL,
    created_at    timestamptz NOT NULL
);
CREATE UNIQUE INDEX users_username_key ON users (lower(username));

CREATE TABLE api_tokens (
    id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    user_id      bigint      NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    name         text        NOT NULL,
    token_hash   bytea       NOT NULL,
    hint         text        NOT NULL,
    scopes       text[]      NOT NULL DEFAULT '{}',
    expires_at   timestamptz,
    last_used_at timestamptz,
    revoked_at   timestamptz,
    created_at   timestamptz NOT NULL
);
CREATE UNIQUE INDEX api_tokens_token_hash_key ON api_tokens (token_hash);
CREATE INDEX api_tokens_user_id_idx ON api_tokens (user_id, id);

CREATE TABLE managed_streams (
    id                 bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    user_id            bigint      NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    slug               text        NOT NULL,
    title              text        NOT NULL,
    broadcast_settings jsonb       NOT NULL DEFAULT '{}',
    live_stream_id     bigint,
    -- last_seq is the seq of the slot's newest event: the insert transaction bumps it under the
    -- row lock, which makes the per-slot sequence gap-free.
    last_seq           bigint      NOT NULL DEFAULT 0,
    created_at         timestamptz NOT NULL,
    updated_at         timestamptz NOT NULL
);
CREATE UNIQUE INDEX managed_streams_user_slug_key ON managed_streams (user_id, lower(slug));

CREATE TABLE live_streams (
    id                bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    managed_stream_id bigint      NOT NULL REFERENCES managed_streams (id) ON DELETE CASCADE,
    started_at        timestamptz NOT NULL,
    ended_at          timestamptz
);
CREATE INDEX live_streams_managed_stream_id_idx ON live_streams (managed_stream_id, id);
-- At most one open live stream per slot.
CREATE UNIQUE INDEX live_streams_open_key ON live_streams (managed_stream_id) WHERE ended_at IS NULL;

ALTER TABLE managed_streams
    ADD CONSTRAINT managed_streams_live_stream_id_fkey
    FOREIGN KEY (live_stream_id) REFERENCES live_streams (id) ON DELETE SET NULL;

CREATE TABLE vibe_coding_sessions (
    id                bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    managed_stream_id bigint      NOT NULL REFERENCES managed_streams (id) ON DELETE CASCADE,
    session_key       text        NOT NULL,
    live_stream_id    bigint      REFERENCES live_streams (id) ON DELETE SET NULL,
    publisher         jsonb       NOT NULL DEFAULT '{}',
    status            text        NOT NULL CHECK (status IN ('active', 'ended')),
    started_at        timestamptz NOT NULL,
    last_seen_at      timestamptz NOT NULL,
    last_event_at     timestamptz,
    ended_at          timestamptz
);
CREATE UNIQUE INDEX vibe_coding_sessions_slot_key ON vibe_coding_sessions (managed_stream_id, session_key);
CREATE INDEX vibe_coding_sessions_last_seen_idx ON vibe_coding_sessions (managed_stream_id, last_seen_at);
CREATE INDEX vibe_coding_sessions_active_idx ON vibe_coding_sessions (last_seen_at) WHERE status = 'active';

CREATE TABLE vibe_coding_events (
    id                 bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    managed_stream_id  bigint      NOT NULL REFERENCES managed_streams (id) ON DELETE CASCADE,
    seq                bigint      NOT NULL CHECK (seq > 0),
    session_id         bigint      NOT NULL REFERENCES vibe_coding_sessions (id) ON DELETE CASCADE,
    event_id           text        NOT NULL,
    event_type         text        NOT NULL,
    visibility         text        NOT NULL CHECK (visibility IN ('public', 'streamer')),
    live_stream_id     bigint      REFERENCES live_streams (id) ON DELETE SET NULL,
    payload            json        NOT NULL,
    occurred_at        timestamptz,
    received_at        timestamptz NOT NULL,
    withheld           boolean     NOT NULL DEFAULT false,
    retracted_at       timestamptz,
    retracted_by       bigint      REFERENCES users (id) ON DELETE SET NULL,
    first_delivered_at timestamptz
);
CREATE UNIQUE INDEX vibe_coding_events_event_id_key ON vibe_coding_events (managed_stream_id, event_id);
CREATE UNIQUE INDEX vibe_coding_events_seq_key ON vibe_coding_events (managed_stream_id, seq);
CREATE INDEX vibe_coding_events_received_at_idx ON vibe_coding_events (received_at);
CREATE INDEX vibe_coding_events_session_id_idx ON vibe_coding_events (session_id);

CREATE TABLE chat_messages (
    id                bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    managed_stream_id bigint      NOT NULL REFERENCES managed_streams (id) ON DELETE CASCADE,
    user_id           bigint      NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    body              text        NOT NULL,
    created_at        timestamptz NOT NULL
);
CREATE INDEX chat_messages_slot_idx ON chat_messages (managed_stream_id, id);

-- +goose Down
DROP TABLE chat_messages;
DROP TABLE vibe_coding_events;
DROP TABLE vibe_coding_sessions;
ALTER TABLE managed_streams DROP CONSTRAINT managed_streams_live_stream_id_fkey;
DROP TABLE live_streams;
DROP TABLE managed_streams;
DROP TABLE api_tokens;
DROP TABLE users;
