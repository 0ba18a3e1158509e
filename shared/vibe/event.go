package vibe

// Canonical event types.
const (
	TypeSessionStatus = "session.status"
	TypePrompt        = "prompt"
	TypeResponse      = "response"
	TypeThinking      = "thinking"
	TypeToolCall      = "tool.call"
	TypeFileChange    = "file.change"
	TypeFileSave      = "file.save"
)

// EventTypes lists the canonical event types.
var EventTypes = []string{TypeSessionStatus, TypePrompt, TypeResponse, TypeThinking, TypeToolCall, TypeFileChange, TypeFileSave}

// Depths, from least to most detail.
const (
	DepthHeadline = "headline"
	DepthStandard = "standard"
	DepthDeep     = "deep"
)

// Event is the canonical vibe-coding event: what a publisher sends inside a
// vibe-coding.event envelope, what the gateway stores after sanitizing, and (cut down by
// Project) what viewers receive. Only these fields exist; anything else a publisher sends is
// dropped.
type Event struct {
	Version    int        `json:"version,omitempty"`
	EventID    string     `json:"eventId"`
	SessionKey string     `json:"sessionKey,omitempty"`
	SessionID  string     `json:"sessionId,omitempty"`
	Sequence   int64      `json:"sequence,omitempty"`
	EventType  string     `json:"eventType"`
	Visibility string     `json:"visibility,omitempty"`
	Depth      string     `json:"depth,omitempty"`
	OccurredAt string     `json:"occurredAt,omitempty"`
	Summary    string     `json:"summary,omitempty"`
	Source     *Source    `json:"source,omitempty"`
	Publisher  *Publisher `json:"publisher,omitempty"`

	Prompt   *TextBody      `json:"prompt,omitempty"`
	Response *ResponseBody  `json:"response,omitempty"`
	Thinking *TextBody      `json:"thinking,omitempty"`
	Tool     *ToolBody      `json:"tool,omitempty"`
	File     *FileBody      `json:"file,omitempty"`
	Status   *StatusBody    `json:"status,omitempty"`
	Metadata *EventMetadata `json:"metadata,omitempty"`
}

type Source struct {
	Channel string `json:"channel,omitempty"`
	RawType string `json:"rawType,omitempty"`
}

type TextBody struct {
	Text string `json:"text"`
}

type ResponseBody struct {
	Text      string `json:"text"`
	Truncated bool   `json:"truncated"`
}

// ToolBody describes a tool call. Phase is one of "start", "end", "error" or empty.
type ToolBody struct {
	Name             string `json:"name"`
	Phase            string `json:"phase,omitempty"`
	ArgumentsPreview string `json:"argumentsPreview,omitempty"`
	ResultPreview    string `json:"resultPreview,omitempty"`
}

// FileBody describes a file event. Operation is one of "create", "edit", "delete",
// "rename", "save" or empty.
type FileBody struct {
	Name         string  `json:"name,omitempty"`
	RelativePath string  `json:"relativePath,omitempty"`
	Operation    string  `json:"operation,omitempty"`
	ChangeCount  int     `json:"changeCount,omitempty"`
	Snippet      *string `json:"snippet"`
}

// StatusBody is the body of a session.status event. State is e.g. "started", "idle",
// "working", "ended".
type StatusBody struct {
	State   string `json:"state,omitempty"`
	Message string `json:"message,omitempty"`
}

type EventMetadata struct {
	RequestID     string `json:"requestId,omitempty"`
	ResponseID    string `json:"responseId,omitempty"`
	WorkspaceName string `json:"workspaceName,omitempty"`
	Model         string `json:"model,omitempty"`
}

// Publisher describes the integration publishing a session (hello.publisher and
// event.publisher).
type Publisher struct {
	IntegrationID    string        `json:"integrationId,omitempty"`
	IntegrationLabel string        `json:"integrationLabel,omitempty"`
	Vendor           string        `json:"vendor,omitempty"`
	ClientType       string        `json:"clientType,omitempty"`
	ClientName       string        `json:"clientName,omitempty"`
	ClientVersion    string        `json:"clientVersion,omitempty"`
	WorkspaceName    string        `json:"workspaceName,omitempty"`
	MachineName      string        `json:"machineName,omitempty"`
	ViewerDepth      string        `json:"viewerDepth,omitempty"`
	Capabilities     *Capabilities `json:"capabilities,omitempty"`
}

type Capabilities struct {
	Thinking            bool `json:"thinking"`
	ToolCalls           bool `json:"toolCalls"`
	WorkspaceFileEvents bool `json:"workspaceFileEvents"`
}

// Known publisher client types; anything else normalizes to "other".
var ClientTypes = []string{"vscode-extension", "cli", "browser", "service"}
