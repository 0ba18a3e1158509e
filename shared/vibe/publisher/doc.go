// Package publisher is a Go client for the vibe-coding publish gateway.
//
// A Client holds one WebSocket to /ws/vibe-coding/publish, authenticated with an hbt_ API
// token (or a JWT) in the Authorization header. It waits for vibe-coding.ready, sends the
// hello, then streams canonical events:
//
//	c, err := publisher.Dial(ctx, publisher.Config{
//		Server: "https://openvibe.example", Token: token, ManagedStreamID: 123,
//		Publisher: vibe.Publisher{IntegrationID: "my-tool", ClientType: "cli"},
//	})
//	...
//	_ = c.Publish(vibe.Event{EventType: vibe.TypePrompt, Prompt: &vibe.TextBody{Text: "…"}})
//	_ = c.Close(ctx) // flushes, then closes
//
// Publish never blocks: events go into a bounded queue (a full queue drops and counts the
// event). A sender goroutine sanitizes each event with the shared vibe sanitizer, sends it
// inside a vibe-coding.event envelope and keeps it until the gateway acks it, with at most
// Config.MaxInFlight unacked events at a time. When the link drops, the client reconnects
// with jittered exponential backoff and sends the unacked events again; the gateway
// deduplicates them by eventId, so each event is stored once.
//
// Close codes 4400, 4401, 4403 and 4404 (or HTTP 400/401/403/404 on the handshake) are
// permanent: the client stops and reports a *RejectedError whose Sentence explains what to
// fix. Other failures, 4429 included, are retried.
package publisher
