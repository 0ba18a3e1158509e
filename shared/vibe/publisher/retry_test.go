package publisher

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// An event the gateway could not store is resent after a delay that doubles per refusal, so
// a store outage is not answered with a flood of resends.
func TestRetryDelayBacksOff(t *testing.T) {
	t.Parallel()
	minD, maxD := 250*time.Millisecond, 30*time.Second
	prev := time.Duration(0)
	for n := 1; n <= 12; n++ {
		d := retryDelay(minD, maxD, n)
		want := min(minD<<(n-1), maxD)
		require.LessOrEqual(t, d, want, "refusal %d", n)
		require.GreaterOrEqual(t, d, want*3/4, "refusal %d", n)
		if want < maxD {
			require.Greater(t, d, prev/2, "grows with refusals")
		}
		prev = d
	}
	require.LessOrEqual(t, retryDelay(minD, maxD, 60), maxD, "capped, no overflow")
}
