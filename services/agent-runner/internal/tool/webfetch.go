package tool

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	htmltomarkdown "github.com/JohannesKaufmann/html-to-markdown/v2"

	"openvibe.live/backend/services/agent-runner/internal/netguard"
	"openvibe.live/backend/services/agent-runner/internal/permission"
)

const (
	fetchMaxBytes   = 5 << 20
	fetchMaxOutput  = 100 << 10
	fetchDefTimeout = 30 * time.Second
	fetchMaxTimeout = 120 * time.Second
)

// WebFetchParams are the web_fetch tool's parameters.
type WebFetchParams struct {
	URL     string `json:"url" jsonschema_description:"http or https URL to fetch"`
	Format  string `json:"format,omitempty" jsonschema_description:"Output format (default markdown)" jsonschema:"enum=markdown,enum=text,enum=html"`
	Timeout int    `json:"timeout,omitempty" jsonschema_description:"Timeout in seconds (default 30, at most 120)" jsonschema:"minimum=0"`
}

// WebFetch returns the web_fetch tool.
func WebFetch(o Options) Tool {
	client := o.HTTPClient
	if client == nil {
		client = newFetchClient(o.AllowPrivateFetch)
	}
	return New(Def[WebFetchParams]{
		Name:        "web_fetch",
		Description: "Fetch a URL and return its content as markdown (HTML converted), text or raw HTML. Responses over 5 MB are refused; output is capped at 100 KB.",
		Kind:        KindRead,
		Perm: func(tc *Context, p WebFetchParams) Perm {
			host := p.URL
			if u, err := url.Parse(p.URL); err == nil {
				host = u.Scheme + "://" + u.Host + "/*"
			}
			return Perm{Pattern: p.URL, Kind: permission.KindText, Always: host, Title: "Fetch " + p.URL}
		},
		Run: func(ctx context.Context, tc *Context, p WebFetchParams) (Result, error) {
			return fetch(ctx, client, p)
		},
	})
}

// newFetchClient refuses loopback, private and link-local addresses unless allowPrivate, so
// the model cannot reach the host's internal services (checked after DNS, on connect).
func newFetchClient(allowPrivate bool) *http.Client {
	dial := netguard.Policy{AllowPrivate: allowPrivate}.DialContext(10 * time.Second)
	return &http.Client{Transport: &http.Transport{DialContext: dial, Proxy: http.ProxyFromEnvironment,
		TLSHandshakeTimeout: 10 * time.Second}, CheckRedirect: func(req *http.Request, via []*http.Request) error {
		if len(via) >= 5 {
			return errors.New("too many redirects")
		}
		return nil
	}}
}

func fetch(ctx context.Context, client *http.Client, p WebFetchParams) (Result, error) {
	u, err := url.Parse(p.URL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return Result{}, Errorf("url must be an absolute http or https URL")
	}
	format := p.Format
	if format == "" {
		format = "markdown"
	}
	if format != "markdown" && format != "text" && format != "html" {
		return Result{}, Errorf("format %q: want markdown, text or html", format)
	}
	timeout := fetchDefTimeout
	if p.Timeout > 0 {
		timeout = min(time.Duration(p.Timeout)*time.Second, fetchMaxTimeout)
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return Result{}, Errorf("bad url: %v", err)
	}
	req.Header.Set("User-Agent", "openvibe/1 (+https://openvibe.live)")
	req.Header.Set("Accept", "text/markdown;q=1.0, text/html;q=0.9, text/plain;q=0.8, */*;q=0.1")
	resp, err := client.Do(req)
	if err != nil {
		return Result{}, Errorf("fetch %s: %v", u, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, fetchMaxBytes+1))
	if err != nil {
		return Result{}, Errorf("read %s: %v", u, err)
	}
	if len(body) > fetchMaxBytes {
		return Result{}, Errorf("response from %s is larger than 5 MB", u)
	}
	if resp.StatusCode >= 400 {
		return Result{}, Errorf("fetch %s: HTTP %d", u, resp.StatusCode)
	}
	out := string(body)
	isHTML := strings.Contains(resp.Header.Get("Content-Type"), "html")
	if isHTML && format != "html" {
		md, err := htmltomarkdown.ConvertString(out)
		if err != nil {
			return Result{}, Errorf("convert HTML from %s: %v", u, err)
		}
		out = md
	}
	if len(out) > fetchMaxOutput {
		out = strings.ToValidUTF8(out[:fetchMaxOutput], "") + "\n\n[content truncated at 100 KB]"
	}
	return Result{Title: fmt.Sprintf("%s (%s)", u, resp.Header.Get("Content-Type")), Output: out}, nil
}
