package web

import (
	"net/url"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestOverlayOptions(t *testing.T) {
	t.Parallel()
	o, problems := overlayOptions(url.Values{})
	require.Empty(t, problems)
	require.Equal(t, overlayData{Theme: "dark", Align: "bottom", Width: 360, Font: 15, ShowTitle: true}, o, "defaults")

	q, _ := url.ParseQuery("theme=light&align=top&width=480&height=600&font=20&max=6&title=0&empty=1")
	o, problems = overlayOptions(q)
	require.Empty(t, problems)
	require.Equal(t, overlayData{Theme: "light", Align: "top", Width: 480, Height: 600, Font: 20, Max: 6, ShowTitle: false, ShowEmpty: true}, o)

	q, _ = url.ParseQuery(`theme=<script>&width=99999&font=x&title=maybe&max=-1`)
	_, problems = overlayOptions(q)
	require.Equal(t, []string{
		"theme must be one of dark, light, glass",
		"width must be a whole number from 200 to 3840",
		"font must be a whole number from 10 to 48",
		"max must be a whole number from 0 to 50",
		"title must be 1 or 0",
	}, problems)
}
