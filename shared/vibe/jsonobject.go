package vibe

import (
	"bytes"
	"encoding/json"
	"unicode/utf8"
)

// object is the members of a JSON object in their order, values as raw JSON.
type object []member

type member struct {
	key string
	val json.RawMessage
}

// get returns the value of key, the last one when the key repeats (as json.Unmarshal into a
// map keeps it), or nil.
func (o object) get(key string) json.RawMessage {
	for i := len(o) - 1; i >= 0; i-- {
		if o[i].key == key {
			return o[i].val
		}
	}
	return nil
}

// jsonObject returns the members of a JSON object, or false when raw is not a valid JSON
// object. It validates once and then walks the bytes, instead of decoding into a map
// through reflection, which cost more than the rest of parsing an event together. The
// values alias raw.
func jsonObject(raw []byte) (object, bool) {
	if !json.Valid(raw) {
		return nil, false
	}
	return splitObject(raw)
}

// splitObject is jsonObject for raw already known to be valid JSON.
func splitObject(raw []byte) (object, bool) {
	i := skipSpace(raw, 0)
	if i >= len(raw) || raw[i] != '{' {
		return nil, false
	}
	obj := make(object, 0, 8)
	i = skipSpace(raw, i+1)
	if raw[i] == '}' {
		return obj, true
	}
	for {
		end := valueEnd(raw, i)
		key, ok := jsonString(raw[i:end])
		if !ok {
			return nil, false // unreachable for valid JSON
		}
		i = skipSpace(raw, skipSpace(raw, end)+1) // past ':'
		end = valueEnd(raw, i)
		obj = append(obj, member{key, raw[i:end:end]})
		i = skipSpace(raw, end)
		if raw[i] == '}' {
			return obj, true
		}
		i = skipSpace(raw, i+1) // past ','
	}
}

// jsonString decodes a JSON string value. A string without escapes in valid UTF-8 (nearly
// every one) is its own bytes; anything else goes through encoding/json.
func jsonString(v []byte) (string, bool) {
	if n := len(v); n >= 2 && v[0] == '"' && v[n-1] == '"' {
		inner := v[1 : n-1]
		if bytes.IndexByte(inner, '\\') < 0 && bytes.IndexByte(inner, '"') < 0 && utf8.Valid(inner) {
			return string(inner), true
		}
	}
	var s string
	err := json.Unmarshal(v, &s)
	return s, err == nil
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// valueEnd returns the end of the JSON value starting at b[i], which must be valid.
func valueEnd(b []byte, i int) int {
	switch b[i] {
	case '"':
		return stringEnd(b, i)
	case '{', '[':
		depth := 0
		for ; i < len(b); i++ {
			switch b[i] {
			case '"':
				i = stringEnd(b, i) - 1
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return i + 1
				}
			}
		}
		return i
	default: // number, true, false, null
		for i < len(b) {
			switch b[i] {
			case ',', '}', ']', ' ', '\t', '\r', '\n':
				return i
			}
			i++
		}
		return i
	}
}

// stringEnd returns the index after the closing quote of the string starting at b[i].
func stringEnd(b []byte, i int) int {
	for i++; i < len(b); i++ {
		switch b[i] {
		case '\\':
			i++
		case '"':
			return i + 1
		}
	}
	return i
}
