package platform

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestConnsCloseRefusesNewAndWaitsForOpen(t *testing.T) {
	t.Parallel()
	var c Conns[int]
	require.True(t, c.Add(1))
	require.True(t, c.Add(2))
	require.False(t, c.Closed())

	var asked []int
	c.Close(func(x int) { asked = append(asked, x) })
	require.ElementsMatch(t, []int{1, 2}, asked, "every open connection is asked to close")
	require.True(t, c.Closed())
	require.False(t, c.Add(3), "no connection is taken once closing")

	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Millisecond)
	defer cancel()
	require.ErrorIs(t, c.Wait(ctx), context.DeadlineExceeded, "two are still open")

	c.Remove(1)
	var left []int
	c.Each(func(x int) { left = append(left, x) })
	require.Equal(t, []int{2}, left)

	done := make(chan error, 1)
	go func() { done <- c.Wait(context.Background()) }()
	select {
	case <-done:
		t.Fatal("Wait returned with a connection open")
	case <-time.After(20 * time.Millisecond):
	}
	c.Remove(2)
	select {
	case err := <-done:
		require.NoError(t, err)
	case <-time.After(5 * time.Second):
		t.Fatal("Wait did not return after the last Remove")
	}
}

func TestConnsWaitWithNone(t *testing.T) {
	t.Parallel()
	var c Conns[string]
	c.Close(func(string) { t.Fatal("no connection to close") })
	require.NoError(t, c.Wait(t.Context()))
}
