module openvibe.live/backend/services/api

go 1.26.0

require (
	openvibe.live/backend/migrations v0.0.0
	openvibe.live/backend/shared v0.0.0
)

require (
	github.com/chromedp/cdproto v0.159.0 // indirect
	github.com/chromedp/chromedp v0.23.0 // indirect
	github.com/go-json-experiment/json v0.0.0-20260213210345-44df1a37e875 // indirect
	openvibe.live/backend/services/chat-socket v0.0.0
	openvibe.live/backend/services/publish-gateway v0.0.0
)

replace (
	openvibe.live/backend/migrations => ../../migrations
	openvibe.live/backend/shared => ../../shared
)

replace openvibe.live/backend/services/chat-socket => ../chat-socket

replace openvibe.live/backend/services/publish-gateway => ../publish-gateway
