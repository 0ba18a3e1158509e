package vibe

// Settings is the normalized vibe-coding settings object of a slot, stored under
// managed_streams.broadcast_settings.vibe_coding. Booleans are 0 or 1, as in the seed. Beside
// the seed's 19 fields there are two of this server's: RedactPersonalData and
// ShowCustomEvents (custom event types, shown by default as generic activity).
type Settings struct {
	Enabled           int    `json:"enabled"`
	WidgetTitle       string `json:"widget_title"`
	ViewerDepth       string `json:"viewer_depth"`
	ShowPrompts       int    `json:"show_prompts"`
	ShowResponses     int    `json:"show_responses"`
	ShowThinking      int    `json:"show_thinking"`
	ShowToolCalls     int    `json:"show_tool_calls"`
	ShowToolArguments int    `json:"show_tool_arguments"`
	ShowFileEvents    int    `json:"show_file_events"`
	ShowFileSnippets  int    `json:"show_file_snippets"`
	RedactFilePaths   int    `json:"redact_file_paths"`
	// RedactPersonalData removes e-mail addresses, names in version control and package
	// manifests and account names in ls/stat/id output from what viewers see.
	RedactPersonalData int `json:"redact_personal_data"`
	Paused             int `json:"paused"`
	DelayMs            int `json:"delay_ms"`
	MaxEvents          int `json:"max_events"`
	MaxPromptChars     int `json:"max_prompt_chars"`
	MaxResponseChars   int `json:"max_response_chars"`
	MaxThinkingChars   int `json:"max_thinking_chars"`
	MaxToolChars       int `json:"max_tool_chars"`
	MaxSnippetChars    int `json:"max_snippet_chars"`
	// ShowCustomEvents shows event types outside the canonical ones as generic activity.
	ShowCustomEvents int `json:"show_custom_events"`
}

// DefaultSettings returns the seed's defaults.
func DefaultSettings() Settings {
	return Settings{
		Enabled:            1,
		WidgetTitle:        "Vibe Coding",
		ViewerDepth:        DepthStandard,
		ShowPrompts:        1,
		ShowResponses:      1,
		ShowThinking:       0,
		ShowToolCalls:      1,
		ShowToolArguments:  0,
		ShowFileEvents:     1,
		ShowFileSnippets:   0,
		RedactFilePaths:    1,
		RedactPersonalData: 1,
		Paused:             0,
		DelayMs:            0,
		MaxEvents:          18,
		MaxPromptChars:     220,
		MaxResponseChars:   360,
		MaxThinkingChars:   140,
		MaxToolChars:       140,
		MaxSnippetChars:    140,
		ShowCustomEvents:   1,
	}
}

// Live reports whether viewers may see anything at all: enabled and not paused.
func (s Settings) Live() bool { return s.Enabled == 1 && s.Paused == 0 }
