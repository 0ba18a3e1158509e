package vibe

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
)

// SanitizeEvent returns the canonical, sanitized copy of a parsed event: every free-text and
// path field goes through the secret and path rules and is capped; identifiers are cleaned
// of control characters and capped; enumerated fields hold a known value or nothing (a
// missing visibility becomes public, an unknown one streamer); a custom event type is cleaned
// like an identifier and keeps only the fields every event has. Parsing (ParseEvent) checks
// shape and maps values; all cleaning happens here. It never fails: a field the sanitizer
// cannot vouch for becomes Redacted.
func (ss *SessionSanitizer) SanitizeEvent(ev Event) Event {
	ctx, cancel := context.WithTimeout(context.Background(), ss.s.timeout)
	defer cancel()
	text := func(s string, limit int) string {
		return truncateRunes(ss.clean(ctx, s, true), limit, Ellipsis)
	}
	line := func(s string, limit int) string {
		return truncateRunes(ss.clean(ctx, s, false), limit, Ellipsis)
	}
	ident := cleanIdent
	// name is a short name shown to viewers: cleaned as an identifier, then sanitized.
	name := func(s string, limit int) string { return line(ident(s), limit) }
	id := func(s string) string { return truncateRunes(ss.cleanID(ctx, s), capIdent, Ellipsis) }

	out := Event{
		Version:    ev.Version,
		EventID:    ev.EventID,
		SessionKey: ident(ev.SessionKey),
		SessionID:  ident(ev.SessionID),
		Sequence:   ev.Sequence,
		EventType:  ev.EventType,
		Visibility: ev.Visibility,
		Depth:      ev.Depth,
		OccurredAt: ident(ev.OccurredAt),
		Summary:    line(ev.Summary, capSummary),
	}
	switch out.Visibility {
	case "":
		out.Visibility = VisibilityPublic
	case VisibilityPublic, VisibilityStreamer:
	default:
		out.Visibility = VisibilityStreamer // unknown: keep it from viewers
	}
	out.Depth = oneOfOrEmpty(out.Depth, DepthHeadline, DepthStandard, DepthDeep)
	if !IsCanonicalType(out.EventType) {
		if out.EventType = name(out.EventType, capType); out.EventType == "" {
			out.EventType = TypeSessionStatus
		}
	}
	if ev.Source != nil {
		out.Source = &Source{Channel: name(ev.Source.Channel, capIdent), RawType: name(ev.Source.RawType, capIdent)}
	}
	if ev.Publisher != nil {
		p := ss.publisher(cleanPublisher(*ev.Publisher), func(s string) string { return line(s, maxPublisherLn) })
		out.Publisher = &p
	}
	if m := ev.Metadata; m != nil {
		out.Metadata = &EventMetadata{
			RequestID:     id(ident(m.RequestID)),
			ResponseID:    id(ident(m.ResponseID)),
			WorkspaceName: name(m.WorkspaceName, capIdent),
			Model:         id(ident(m.Model)),
		}
	}
	switch ev.EventType {
	case TypePrompt:
		if ev.Prompt != nil {
			out.Prompt = &TextBody{Text: text(ev.Prompt.Text, capBody)}
		}
	case TypeThinking:
		if ev.Thinking != nil {
			out.Thinking = &TextBody{Text: text(ev.Thinking.Text, capBody)}
		}
	case TypeResponse:
		if ev.Response != nil {
			clean := ss.clean(ctx, ev.Response.Text, true)
			t := truncateRunes(clean, capBody, Ellipsis)
			out.Response = &ResponseBody{Text: t, Truncated: ev.Response.Truncated || t != clean}
		}
	case TypeToolCall:
		if t := ev.Tool; t != nil {
			out.Tool = &ToolBody{
				Name:             name(t.Name, capName),
				Phase:            oneOfOrEmpty(t.Phase, "start", "end", "error"),
				ArgumentsPreview: text(t.ArgumentsPreview, capBody),
				ResultPreview:    text(t.ResultPreview, capBody),
			}
		}
	case TypeFileChange, TypeFileSave:
		if f := ev.File; f != nil {
			out.File = &FileBody{
				Name:         baseName(line(f.Name, capName)),
				RelativePath: relativePath(line(f.RelativePath, capName)),
				Operation:    oneOfOrEmpty(f.Operation, "create", "edit", "delete", "rename", "save"),
				ChangeCount:  max(f.ChangeCount, 0),
			}
			if f.Snippet != nil {
				s := text(*f.Snippet, capBody)
				out.File.Snippet = &s
			}
		}
	case TypeSessionStatus:
		if st := ev.Status; st != nil {
			out.Status = &StatusBody{State: name(st.State, capIdent), Message: line(st.Message, capMessage)}
		}
	}
	return out
}

// capType caps a custom event type, in characters.
const capType = 64

// cleanIdent removes control characters from an identifier and caps it.
func cleanIdent(s string) string { return truncateRunes(cleanControl(s, false), capIdent, "") }

// SanitizeNormalized returns the record of what was normalised in an event with every string
// value cleaned and sanitized like an identifier, so that the record stored beside the
// sanitized event holds nothing the event may not.
func (ss *SessionSanitizer) SanitizeNormalized(n Normalized) Normalized {
	if len(n) == 0 {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), ss.s.timeout)
	defer cancel()
	out := make(Normalized, len(n))
	for i, f := range n {
		out[i] = NormalizedField{Field: cleanIdent(f.Field), From: f.From}
		if len(f.From) == 0 || f.From[0] != '"' {
			continue
		}
		s, _ := jsonString(f.From)
		b, _ := json.Marshal(truncateRunes(ss.clean(ctx, cleanIdent(s), false), maxRecordedRunes, Ellipsis))
		out[i].From = b
	}
	return out
}

func oneOfOrEmpty(s string, allowed ...string) string {
	if slices.Contains(allowed, s) {
		return s
	}
	return ""
}

// relativePath keeps a sanitized relativePath relative: if a path rule turned it into
// something absolute-looking or it still starts with a separator, only the file name stays.
func relativePath(p string) string {
	if strings.HasPrefix(p, "/") || strings.HasPrefix(p, `\`) || (len(p) >= 2 && p[1] == ':') {
		return baseName(p)
	}
	return p
}

func (ss *SessionSanitizer) publisher(p Publisher, line func(string) string) Publisher {
	out := Publisher{
		IntegrationID:    line(p.IntegrationID),
		IntegrationLabel: line(p.IntegrationLabel),
		Vendor:           line(p.Vendor),
		ClientType:       p.ClientType,
		ClientName:       line(p.ClientName),
		ClientVersion:    line(p.ClientVersion),
		WorkspaceName:    line(p.WorkspaceName),
		MachineName:      p.MachineName,
		ViewerDepth:      p.ViewerDepth,
	}
	if p.Capabilities != nil {
		c := *p.Capabilities
		out.Capabilities = &c
	}
	return out
}
