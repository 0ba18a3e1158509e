// Package e2e holds the api's browser tests: the viewer and studio pages driven in headless
// Chromium (chromedp) against a running stack — the api, chat-socket and publish-gateway
// services on one server — with events published through the real gateway.
package e2e
