module openvibe.live/backend/migrations

go 1.26
