package engine

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"openvibe.live/backend/services/agent-runner/internal/bus"
	"openvibe.live/backend/services/agent-runner/internal/id"
	"openvibe.live/backend/services/agent-runner/internal/message"
	"openvibe.live/backend/services/agent-runner/internal/store"
)

// ExportFormat names the session export document.
const ExportFormat = "openvibe.session"

// ExportVersion is the version of the document this runner writes and reads.
const ExportVersion = 1

// MaxImportMessages bounds the history one import may bring.
const MaxImportMessages = 20_000

// ErrBadExport: the document is not a session export this runner can read.
var ErrBadExport = errors.New("not an openvibe session export")

// Export is one session as a single JSON document: the session, its messages with their
// parts, in order, and its todos.
type Export struct {
	Format   string             `json:"format"`
	Version  int                `json:"version"`
	Exported time.Time          `json:"exported"`
	Session  store.Session      `json:"session"`
	Messages []*message.Message `json:"messages"`
	Todos    []store.Todo       `json:"todos"`
}

// Export returns the session's document.
func (e *Engine) Export(ctx context.Context, s store.Session) (Export, error) {
	msgs, err := e.d.Store.ListMessages(ctx, s.ID)
	if err != nil {
		return Export{}, err
	}
	if msgs == nil {
		msgs = []*message.Message{}
	}
	todos, err := e.d.Store.GetTodos(ctx, s.ID)
	if err != nil {
		return Export{}, err
	}
	return Export{Format: ExportFormat, Version: ExportVersion, Exported: time.Now().UTC(), Session: s, Messages: msgs, Todos: todos}, nil
}

// ImportInput is where an export becomes a session.
type ImportInput struct {
	OwnerID int64
	// Directory is the new session's directory (as for CreateSession); empty means the
	// document's, which must then be a directory the owner may use.
	Directory string
	Doc       Export
}

// Import creates a session from an export, with fresh IDs for it, its messages and parts
// (in their order), its todos and usage; the title, agent and times are the document's.
func (e *Engine) Import(ctx context.Context, in ImportInput) (store.Session, error) {
	doc := in.Doc
	if err := doc.check(); err != nil {
		return store.Session{}, err
	}
	dirIn := in.Directory
	if dirIn == "" {
		dirIn = doc.Session.Directory
	}
	root := e.d.Root(in.OwnerID)
	dir, err := e.CheckDir(dirIn, root)
	if err != nil {
		if in.Directory == "" {
			return store.Session{}, fmt.Errorf("%w (the export's directory; name one to import into)", err)
		}
		return store.Session{}, err
	}
	proj, err := e.project(ctx, dir, root)
	if err != nil {
		return store.Session{}, err
	}
	src := doc.Session
	s := store.Session{ID: id.New(id.Session), ProjectID: proj.ID, OwnerID: in.OwnerID, Title: src.Title, Directory: dir,
		Agent: src.Agent, Usage: src.Usage, Created: src.Created.UTC(), Updated: time.Now().UTC()}
	if strings.TrimSpace(s.Title) == "" {
		s.Title = "Imported session"
	}
	if s.Agent == "" {
		s.Agent = "build"
	}
	if s.Created.IsZero() {
		s.Created = s.Updated
	}
	for _, m := range doc.Messages {
		m.ID, m.SessionID = id.New(id.Message), s.ID
		for _, p := range m.Parts {
			meta := p.Meta()
			meta.ID, meta.MessageID, meta.SessionID = id.New(id.Part), m.ID, s.ID
		}
	}
	if err := e.d.Store.ImportSession(ctx, s, doc.Messages, doc.Todos); err != nil {
		return store.Session{}, err
	}
	e.d.Bus.Publish(bus.Event{Type: bus.SessionCreated, SessionID: s.ID, OwnerID: s.OwnerID, Properties: s})
	return s, nil
}

// check refuses documents this runner cannot import faithfully.
func (doc Export) check() error {
	switch {
	case doc.Format != ExportFormat:
		return fmt.Errorf("%w: format is %q, want %q", ErrBadExport, doc.Format, ExportFormat)
	case doc.Version != ExportVersion:
		return fmt.Errorf("%w: version %d, this runner reads version %d", ErrBadExport, doc.Version, ExportVersion)
	case len(doc.Messages) > MaxImportMessages:
		return fmt.Errorf("%w: %d messages, at most %d", ErrBadExport, len(doc.Messages), MaxImportMessages)
	}
	for i, m := range doc.Messages {
		if m == nil {
			return fmt.Errorf("%w: messages[%d] is null", ErrBadExport, i)
		}
		switch m.Role {
		case message.RoleUser, message.RoleAssistant, message.RoleSystem:
		default:
			return fmt.Errorf("%w: messages[%d]: role %q", ErrBadExport, i, m.Role)
		}
		for j, p := range m.Parts {
			if p == nil {
				return fmt.Errorf("%w: messages[%d].parts[%d] is null", ErrBadExport, i, j)
			}
		}
	}
	return nil
}
