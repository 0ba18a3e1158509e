package vibe

import (
	"testing"
)

// TestAlgorithmSettingIsNoSecret: a setting whose name ends in the algorithm, scheme or
// cipher a credential is made or checked with names that algorithm, in the config files and
// .env templates agents read (FastAPI's TOKEN_ALGORITHM, PostgreSQL's password_encryption,
// Dovecot's default_pass_scheme).
func TestAlgorithmSettingIsNoSecret(t *testing.T) {
	t.Parallel()
	san := testSanitizer(t)
	requireKept(t, san,
		"SECRET_KEY_ALGORITHM=HS256\nTOKEN_ALGORITHM=HS512\nJWT_SECRET_ALGORITHM = \"RS256\"",
		"#password_encryption = scram-sha-256\t# scram-sha-256 or md5",
		"default_pass_scheme = SHA512-CRYPT",
		"token_cipher: aes-256-gcm\npassword_hash_algorithm = \"argon2id\"",
	)
	requireMasked(t, san, []maskedRow{
		{"ENCRYPTION_KEY=Qx7mB2pzR9vL4kWn8cT1yH6jPq3", "Qx7mB2pzR9vL4kWn8cT1yH6jPq3"},
		{"cipher_secret: 'tR4#kq8Zm2Lp'", "tR4#kq8Zm2Lp"},
		{"TOKEN_ALGORITHM=HS256\nTOKEN=dipPr170GgXw31kLm", "dipPr170GgXw31kLm"},
		{"encryption_password = hunter2Go!", "hunter2Go!"},
	})
}
