package httpapi

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strconv"

	"github.com/labstack/echo/v4"
)

// maxBodyBytes bounds every JSON request body.
const maxBodyBytes = 64 << 10

// decodeJSON strictly decodes the request body into dst: JSON only, one object, no unknown
// fields, at most maxBodyBytes. Errors are 4xx with a message naming the problem.
func decodeJSON(c echo.Context, dst any) error {
	r := c.Request()
	if ct := r.Header.Get("Content-Type"); ct != "" {
		mt, _, err := mime.ParseMediaType(ct)
		if err != nil || (mt != "application/json" && mt != "application/merge-patch+json") {
			return echo.NewHTTPError(http.StatusUnsupportedMediaType, "Content-Type must be application/json")
		}
	}
	dec := json.NewDecoder(http.MaxBytesReader(c.Response(), r.Body, maxBodyBytes))
	dec.DisallowUnknownFields()
	if err := dec.Decode(dst); err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			return echo.NewHTTPError(http.StatusRequestEntityTooLarge, bodyError(err))
		}
		return echo.NewHTTPError(http.StatusBadRequest, bodyError(err))
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return echo.NewHTTPError(http.StatusBadRequest, "Request body must hold a single JSON object")
	}
	return nil
}

func bodyError(err error) string {
	var syntax *json.SyntaxError
	var typ *json.UnmarshalTypeError
	var tooBig *http.MaxBytesError
	switch {
	case errors.Is(err, io.EOF):
		return "Request body is required"
	case errors.As(err, &tooBig):
		return fmt.Sprintf("Request body is larger than %d bytes", maxBodyBytes)
	case errors.As(err, &syntax):
		return fmt.Sprintf("Malformed JSON at byte %d", syntax.Offset)
	case errors.As(err, &typ) && typ.Field != "":
		return fmt.Sprintf("%s must be %s", typ.Field, jsonKind(typ.Type.Kind().String()))
	case errors.As(err, &typ):
		return "Request body must be a JSON object"
	default:
		// json reports unknown fields as `json: unknown field "x"`.
		const prefix = "json: "
		msg := err.Error()
		if len(msg) > len(prefix) && msg[:len(prefix)] == prefix {
			msg = msg[len(prefix):]
		}
		return "Invalid request body: " + msg
	}
}

func jsonKind(goKind string) string {
	switch goKind {
	case "string":
		return "a string"
	case "int", "int64", "int32", "float64":
		return "a number"
	case "slice":
		return "an array"
	case "bool":
		return "a boolean"
	case "map", "struct":
		return "an object"
	}
	return "of another type"
}

// parseLimit reads an optional integer query parameter and clamps it to [1, max].
func parseLimit(raw string, def, max int) (int, error) {
	if raw == "" {
		return def, nil
	}
	n, err := strconv.Atoi(raw)
	if err != nil {
		return 0, echo.NewHTTPError(http.StatusBadRequest, "limit must be an integer")
	}
	return min(max, maxInt(n, 1)), nil
}

func maxInt(a, b int) int {
	if a > b {
		return a
	}
	return b
}

// parseID reads a positive integer path parameter; anything else is reported as notFound.
func parseID(raw, notFound string) (int64, error) {
	id, err := strconv.ParseInt(raw, 10, 64)
	if err != nil || id <= 0 {
		return 0, echo.NewHTTPError(http.StatusNotFound, notFound)
	}
	return id, nil
}
