package httpapi

import (
	"bytes"
	"encoding/json"
	"errors"
	"net/http/httptest"
	"reflect"
	"testing"

	"github.com/labstack/echo/v4"
)

// FuzzDecodeJSON feeds each input as a request body to the strict decoder every write
// endpoint uses. Properties: no panic; a refusal is a 4xx *echo.HTTPError with a message
// (never a 5xx); an accepted body re-encodes to JSON that decodes to the same value.
func FuzzDecodeJSON(f *testing.F) {
	for _, s := range []string{
		`{"name":"laptop","scopes":["vibe_coding_publish"],"expires_in_days":90}`, `{"name":"x","scopes":[]}`,
		`{"name":1}`, `{"colour":"red"}`, `{"name":"a"} {"name":"b"}`, `{"name":"a"}]`, `[]`, `null`, `{`, ``,
		`{"expires_in_days":1e400}`, `{"scopes":null,"expires_in_days":null}`, "\xef\xbb\xbf{}",
	} {
		f.Add([]byte(s), "application/json")
	}
	f.Add([]byte(`{}`), "text/plain")
	f.Add([]byte(`{}`), "application/json; charset=\"")
	e := echo.New()
	f.Fuzz(func(t *testing.T, body []byte, contentType string) {
		req := httptest.NewRequest("POST", "/api/tokens", bytes.NewReader(body))
		req.Header.Set("Content-Type", contentType)
		c := e.NewContext(req, httptest.NewRecorder())
		var in createTokenRequest
		err := decodeJSON(c, &in)
		if err != nil {
			he, ok := errors.AsType[*echo.HTTPError](err)
			if !ok || he.Code < 400 || he.Code > 499 {
				t.Fatalf("refusal of %q is not a 4xx: %v", body, err)
			}
			if msg, _ := he.Message.(string); msg == "" {
				t.Fatalf("refusal of %q has no message", body)
			}
			return
		}
		raw, err := json.Marshal(in)
		if err != nil {
			t.Fatalf("encode %+v: %v", in, err)
		}
		var again createTokenRequest
		req = httptest.NewRequest("POST", "/api/tokens", bytes.NewReader(raw))
		if err := decodeJSON(e.NewContext(req, httptest.NewRecorder()), &again); err != nil {
			t.Fatalf("re-encoded %s refused: %v", raw, err)
		}
		if !reflect.DeepEqual(in, again) {
			t.Fatalf("round trip changed %+v into %+v", in, again)
		}
	})
}
