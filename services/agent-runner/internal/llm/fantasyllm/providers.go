package fantasyllm

import (
	"fmt"
	"net/http"

	"charm.land/fantasy"
	"charm.land/fantasy/providers/anthropic"
	"charm.land/fantasy/providers/azure"
	"charm.land/fantasy/providers/bedrock"
	"charm.land/fantasy/providers/google"
	"charm.land/fantasy/providers/openai"
	"charm.land/fantasy/providers/openaicompat"
	"charm.land/fantasy/providers/openrouter"
	"github.com/openai/openai-go/v3/option"
)

// ProviderConfig is what building a provider needs.
type ProviderConfig struct {
	Name    string
	Type    string // openai, anthropic, google, openrouter, azure, bedrock, openai-compatible
	BaseURL string
	APIKey  string
	Headers map[string]string
	Options map[string]string
	// HTTPClient is used for every request (nil: http.DefaultClient).
	HTTPClient *http.Client
}

// KeyEnv names the environment variable holding each provider type's API key by default.
var KeyEnv = map[string]string{
	"openai":     "OPENAI_API_KEY",
	"anthropic":  "ANTHROPIC_API_KEY",
	"google":     "GEMINI_API_KEY",
	"openrouter": "OPENROUTER_API_KEY",
	"azure":      "AZURE_OPENAI_API_KEY",
	"bedrock":    "AWS_BEARER_TOKEN_BEDROCK",
}

// Types lists the provider types NewProvider builds.
var Types = []string{"openai", "anthropic", "google", "openrouter", "azure", "bedrock", "openai-compatible"}

// NewProvider builds a fantasy provider. The SDKs' own retries are turned off where the
// provider allows it, so Backend's retry policy is the only one.
func NewProvider(c ProviderConfig) (fantasy.Provider, error) {
	hc := c.HTTPClient
	if hc == nil {
		hc = http.DefaultClient
	}
	switch c.Type {
	case "openai":
		opts := []openai.Option{openai.WithAPIKey(c.APIKey), openai.WithHTTPClient(hc), openai.WithName(c.Name),
			openai.WithSDKOptions(option.WithMaxRetries(0))}
		if c.BaseURL != "" {
			opts = append(opts, openai.WithBaseURL(c.BaseURL))
		}
		if len(c.Headers) > 0 {
			opts = append(opts, openai.WithHeaders(c.Headers))
		}
		return openai.New(opts...)
	case "openai-compatible":
		if c.BaseURL == "" {
			return nil, fmt.Errorf("provider %s: base_url is required for an openai-compatible provider", c.Name)
		}
		opts := []openaicompat.Option{openaicompat.WithBaseURL(c.BaseURL), openaicompat.WithAPIKey(c.APIKey),
			openaicompat.WithName(c.Name), openaicompat.WithHTTPClient(hc), openaicompat.WithSDKOptions(option.WithMaxRetries(0))}
		if len(c.Headers) > 0 {
			opts = append(opts, openaicompat.WithHeaders(c.Headers))
		}
		return openaicompat.New(opts...)
	case "anthropic":
		opts := []anthropic.Option{anthropic.WithAPIKey(c.APIKey), anthropic.WithHTTPClient(hc), anthropic.WithName(c.Name)}
		if c.BaseURL != "" {
			opts = append(opts, anthropic.WithBaseURL(c.BaseURL))
		}
		if len(c.Headers) > 0 {
			opts = append(opts, anthropic.WithHeaders(c.Headers))
		}
		return anthropic.New(opts...)
	case "google":
		opts := []google.Option{google.WithGeminiAPIKey(c.APIKey), google.WithHTTPClient(hc), google.WithName(c.Name)}
		if c.BaseURL != "" {
			opts = append(opts, google.WithBaseURL(c.BaseURL))
		}
		if len(c.Headers) > 0 {
			opts = append(opts, google.WithHeaders(c.Headers))
		}
		return google.New(opts...)
	case "openrouter":
		opts := []openrouter.Option{openrouter.WithAPIKey(c.APIKey), openrouter.WithHTTPClient(hc), openrouter.WithName(c.Name)}
		if len(c.Headers) > 0 {
			opts = append(opts, openrouter.WithHeaders(c.Headers))
		}
		return openrouter.New(opts...)
	case "azure":
		if c.BaseURL == "" {
			return nil, fmt.Errorf("provider %s: base_url (the Azure resource endpoint) is required", c.Name)
		}
		opts := []azure.Option{azure.WithBaseURL(c.BaseURL), azure.WithAPIKey(c.APIKey), azure.WithHTTPClient(hc)}
		if v := c.Options["api_version"]; v != "" {
			opts = append(opts, azure.WithAPIVersion(v))
		}
		if len(c.Headers) > 0 {
			opts = append(opts, azure.WithHeaders(c.Headers))
		}
		return azure.New(opts...)
	case "bedrock":
		opts := []bedrock.Option{bedrock.WithAPIKey(c.APIKey), bedrock.WithHTTPClient(hc)}
		if v := c.Options["region"]; v != "" {
			opts = append(opts, bedrock.WithRegion(v))
		}
		if c.BaseURL != "" {
			opts = append(opts, bedrock.WithBaseURL(c.BaseURL))
		}
		if len(c.Headers) > 0 {
			opts = append(opts, bedrock.WithHeaders(c.Headers))
		}
		return bedrock.New(opts...)
	}
	return nil, fmt.Errorf("provider %s: unknown type %q (want one of %v)", c.Name, c.Type, Types)
}
