package main

import (
	"openvibe.live/backend/services/publish-gateway/gateway"
	"openvibe.live/backend/shared/backends"
	"openvibe.live/backend/shared/platform"
)

// config is the binary's configuration, read from the environment.
type config struct {
	platform.Common
	Backends backends.Config
	Gateway  gateway.Config
}

// Validate reports every invalid setting at once.
func (c *config) Validate() error {
	var p platform.Problems
	p.Add(c.Common.Validate())
	p.Add(c.Backends.Validate())
	p.Add(c.Gateway.Validate())
	return p.Err()
}
