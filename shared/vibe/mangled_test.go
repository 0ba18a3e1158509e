package vibe

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestMangledNamesPassEntropy: C++ symbols in the Itanium ABI's mangling, as a linker error,
// nm and a symbols file print them, are names; random tokens that open the same way are not.
func TestMangledNamesPassEntropy(t *testing.T) {
	t.Parallel()
	san := testSanitizer(t)
	requireKept(t, san,
		"/usr/bin/ld: main.o: in function `main':\nmain.cpp:(.text+0x2a): undefined reference to `_ZN5boost6system15system_categoryEv'\ncollect2: error: ld returned 1 exit status",
		"FUNC:_ZNKSt15basic_stringbufIwSt11char_traitsIwESaIwEE3strEv@@GLIBCXX_3.4",
		"0000000000001139 T _ZN7openvibe6render11FrameBuffer12resizeToFitEjj",
		"Undefined symbols for architecture arm64:\n  \"__ZNSt3__112basic_stringIcNS_11char_traitsIcEENS_9allocatorIcEEE6appendEPKc\", referenced from:",
		// A symbols file: a namespace named with a unit (x265_10bit), acronyms (LookaheadTLD,
		// ToPelX) and a template's literal argument (ILi16E: the int 16, no name's length).
		" _ZN10x265_10bit12LookaheadTLD19lowresIntraEstimateERNS_6LowresEj@Base 3.5",
		" _ZN10x265_12bit13g_zscanToPelXE@Base 3.5",
		" _ZN10x265_10bit21interp_8tap_hv_pp_cpuILi16EEEvPKtlPtlii@Base 3.5",
	)
	// Random tokens of the alphabet keys use, after the same openings: none is a mangled name.
	rng := rand.New(rand.NewPCG(7, 11))
	const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_"
	passed := 0
	for range 20000 {
		b := make([]byte, 24+rng.IntN(40))
		for i := range b {
			b[i] = alphabet[rng.IntN(len(alphabet))]
		}
		for _, open := range []string{"_ZN", "_ZNK", "_Z", "ZN", "_ZNSt"} {
			if mangledName(open + string(b)) {
				passed++
			}
		}
	}
	require.Zero(t, passed, "random tokens taken for mangled names")
	requireMasked(t, san, []maskedRow{
		{"undefined reference to `_ZN4Qx7mB2pzR9vL4kWn8cT1yH6jPq3abcdEF'", "Qx7mB2pzR9vL4kWn8cT1yH6jPq3"},
		{"export TOKEN=ZN5abcdeQx7mB2pzR9vL4kWn8cT1yH6jPq3abcdEF", "Qx7mB2pzR9vL4kWn8cT1yH6jPq3"},
	})
	require.True(t, mangledName("_ZNKSt10moneypunctIcLb1EE8groupingEv"))
	require.False(t, mangledName("_ZN4Qx7mB2pzR9vL4kWn8cT1yH6jPq3abcdEF"), "one length-prefixed name, then random")
}
