module openvibe.live/backend/services/standalone

go 1.26

require (
	openvibe.live/backend/shared v0.0.0
	openvibe.live/backend/migrations v0.0.0
)

replace (
	openvibe.live/backend/shared => ../../shared
	openvibe.live/backend/migrations => ../../migrations
)
