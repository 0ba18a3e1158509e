package vibe

// mangledName reports a C++ symbol as the Itanium ABI mangles it (GCC and Clang on Linux
// and macOS), the way linker errors, nm, c++filt's input and symbol files print it:
// _Z (or macOS's __Z), a name's opening (N for a nested one, S for std, L, Z, or a length),
// then identifiers each prefixed with its length, which hold most of the rest and read as
// names of code together (nameShaped): _ZNKSt15basic_stringbufIwSt11char_traitsIwESaIwEE3strEv.
// A random token cuts into length-prefixed runs as easily, but not into words.
func mangledName(tok string) bool {
	s := tok
	switch {
	case len(s) > 3 && s[:3] == "__Z":
		s = s[3:]
	case len(s) > 2 && s[:2] == "_Z":
		s = s[2:]
	case len(s) > 1 && s[0] == 'Z': // the entropy rule trims a token's leading underscores
		s = s[1:]
	default:
		return false
	}
	if len(s) < 8 || !isMangledOpening(s[0]) {
		return false
	}
	covered, names, long := 0, 0, 0
	var buf [128]byte
	joined := buf[:0] // the identifiers, joined by _
	for i := 0; i < len(s); {
		if s[i] < '1' || s[i] > '9' {
			i++
			continue
		}
		j, n := i, 0
		for j < len(s) && isDigitByte(s[j]) && n < 1000 {
			n = n*10 + int(s[j]-'0')
			j++
		}
		if n > len(s)-j || !cIdentifier(s[j:j+n]) {
			i = j
			continue
		}
		names++
		if len(joined) > 0 {
			joined = append(joined, '_')
		}
		joined = append(joined, s[j:j+n]...)
		if n >= 4 {
			long++
		}
		covered += j - i + n
		i = j + n
	}
	return names >= 2 && long >= 1 && covered*5 >= len(s)*3 && nameShaped(string(joined))
}

func isMangledOpening(c byte) bool {
	return c == 'N' || c == 'S' || c == 'L' || c == 'Z' || isDigitByte(c) && c != '0'
}

// cIdentifier reports a C identifier: a letter or _, then letters, digits and _.
func cIdentifier(s string) bool {
	if s == "" || isDigitByte(s[0]) {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isWordByte(s[i]) {
			return false
		}
	}
	return true
}
