// Package activity holds what every agent adapter of vibe-publish shares: stable event ids,
// canonical event constructors, project-relative paths, and tool summaries that tell viewers
// what a tool did without showing its arguments.
package activity
