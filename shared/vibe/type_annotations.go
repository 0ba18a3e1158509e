package vibe

import "strings"

// Type annotations between a declared name and its initial value (name: Type = "value"):
// the value after the `=` is the one a credential name gives, the type is no value.

// typeAnnotationEnd returns the end of the type annotation that starts at j, after a
// name's colon, or j when none starts there. A type is a word with dots, brackets and `|`
// (str, Int, [String], string|null), and also:
//   - a Swift or Kotlin optional or implicitly unwrapped type (String?, UITextField!),
//     whose name is capitalised letters only: a value such as Summer2024! holds a digit;
//   - a Rust reference or borrowed type (&str, &'static str, &mut String, &[u8]);
//   - generic arguments (Option<String>, Map<String, String>) up to the closing `>`.
//
// Only a `=` after the type (checked by the caller) makes it one, so a YAML anchor
// (password: &pw x) or tag (secret: !vault x) is left as it was.
func typeAnnotationEnd(s string, j int) int {
	k := j
	if k < len(s) && s[k] == '&' {
		k++
		if k < len(s) && s[k] == '\'' { // a lifetime: &'static str
			e := k + 1
			for e < len(s) && isWordByte(s[e]) {
				e++
			}
			if e == k+1 || e >= len(s) || s[e] != ' ' {
				return j
			}
			k = e + 1
		}
		if strings.HasPrefix(s[k:], "mut ") {
			k += 4
		}
	}
	start := k
	for k < len(s) && (isWordByte(s[k]) || s[k] == '.' || s[k] == '[' || s[k] == ']' || s[k] == '|') && k-start < 30 {
		k++
	}
	if k == start {
		return j
	}
	name := s[start:k]
	if k < len(s) && s[k] == '<' {
		depth := 0
		e := k
		for ; e < len(s) && e-k < 40; e++ {
			c := s[e]
			if c == '<' {
				depth++
			} else if c == '>' {
				if depth--; depth == 0 {
					break
				}
			} else if !isWordByte(c) && strings.IndexByte(" ,.&'?[]", c) < 0 {
				return j
			}
		}
		if e >= len(s) || e-k >= 40 || s[e] != '>' {
			return j
		}
		k = e + 1
	}
	if k < len(s) && (s[k] == '?' || s[k] == '!') && capitalisedLetters(name) {
		k++
	}
	return k
}

// capitalisedLetters reports a type's name written as one: an upper-case letter, then
// letters and dots only.
func capitalisedLetters(name string) bool {
	if name == "" || name[0] < 'A' || name[0] > 'Z' {
		return false
	}
	for i := 0; i < len(name); i++ {
		if !isLetter(name[i]) && name[i] != '.' {
			return false
		}
	}
	return true
}
