module openvibe.live/backend/clients/vibe-publish

go 1.26

require openvibe.live/backend/shared v0.0.0

replace openvibe.live/backend/shared => ../../shared
