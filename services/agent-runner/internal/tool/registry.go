package tool

import (
	"fmt"
	"slices"
	"sync"
)

// Registry is the live set of tools: built-ins at startup, others (MCP) added on top.
type Registry struct {
	mu    sync.RWMutex
	tools []Tool
}

// NewRegistry returns a registry holding tools.
func NewRegistry(tools ...Tool) (*Registry, error) {
	r := &Registry{}
	for _, t := range tools {
		if err := r.Add(t); err != nil {
			return nil, err
		}
	}
	return r, nil
}

// Add registers t; names are unique.
func (r *Registry) Add(t Tool) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, have := range r.tools {
		if have.Name() == t.Name() {
			return fmt.Errorf("tool %q registered twice", t.Name())
		}
	}
	r.tools = append(r.tools, t)
	return nil
}

// Remove drops the named tool (an MCP server going away).
func (r *Registry) Remove(name string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.tools = slices.DeleteFunc(r.tools, func(t Tool) bool { return t.Name() == name })
}

// All returns every tool in registration order.
func (r *Registry) All() []Tool {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return slices.Clone(r.tools)
}

// Get returns the named tool.
func (r *Registry) Get(name string) (Tool, bool) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	for _, t := range r.tools {
		if t.Name() == name {
			return t, true
		}
	}
	return nil, false
}
