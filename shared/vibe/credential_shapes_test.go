package vibe

import (
	"testing"
)

// TestCommentedConfigLine: a config line commented out keeps its value (# password: x, the
// YAML a template ships disabled); a comment's prose, a placeholder or a name of words under
// the same name stays.
func TestCommentedConfigLine(t *testing.T) {
	t.Parallel()
	san := testSanitizer(t)
	requireMasked(t, san, []maskedRow{
		{"# password: vqtrplkz", "vqtrplkz"},
		{"db:\n#   username: app\n#   password: kwoz_qe_trhnbvx", "kwoz_qe_trhnbvx"},
		{"#  access-key: mzhdqpsw", "mzhdqpsw"},
		{"    #    pwd: yqjvtx", "yqjvtx"},
		{"// api_token = fq7Lm2xZ0pRt", "fq7Lm2xZ0pRt"},
	})
	requireKept(t, san,
		"# password: required",
		"# password: the password of the database user",
		"# password: db_password",
		"# password: ${DB_PASSWORD}",
		"# api_key: YOUR_API_KEY",
		"# token: see below",
		"// token: string",
		"# passwordFile: /etc/app/pw",
		"# sa-token.cookie.domain=login.example.com",
		"//\ttoken = 1*tchar",
		"# password: changeme",
	)
}
