package vibe

import (
	"encoding/base64"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// The kept rows quote lines of BurntSushi/ripgrep (MIT or Unlicense), heartcombo/devise
// (MIT), laravel/laravel (MIT), phoenixframework/phoenix (MIT), geerlingguy/ansible-for-devops
// (MIT), dotnet/eShop (MIT), android/nowinandroid (Apache-2.0) and
// spring-projects/spring-security-samples (Apache-2.0, its files' headers), and Go modules of
// the trees' development half: andybalholm/brotli and labstack/echo (MIT), golang.org/x/crypto
// and golang.org/x/text (BSD-3-Clause). The rows of
// secrets are made up.

func TestApplicationShapes(t *testing.T) {
	t.Parallel()
	san, err := NewSanitizer()
	require.NoError(t, err)
	t.Run("kept", func(t *testing.T) {
		requireKept(t, san,
			// a release archive's directory and its binary
			"cp ripgrep-0.1.2-x86_64-unknown-linux-musl/rg bin/",
			// a Rust macro's fragment specifier
			"macro_rules! debug {\n    ($($token:tt)*) => (::log::debug!($($token)*);)\n}",
			// Ruby: a time, a list of symbols
			"      #   # reset_password_within = 5.days and reset_password_sent_at = 4.days.ago",
			"      user.reset_password_sent_at = 2.days.ago",
			"    swap Devise, reset_password_keys: [:username, :email] do",
			// an Entity Framework migration's columns
			"                    DestUrl = table.Column<string>(type: \"text\", nullable: true),\n                    Token = table.Column<string>(type: \"text\", nullable: true),\n                    UserId = table.Column<string>(type: \"text\", nullable: true)",
			// the folder .NET keeps a project's user secrets in
			"    <UserSecretsId>aspnet-eShopOnContainers.Identity-90487118-103c-4ff0-b9da-e5e26f7ab0c5</UserSecretsId>",
			// protoc's C# descriptor in base64
			"      byte[] descriptorData = global::System.Convert.FromBase64String(\n          string.Concat(\n            \"CiNTZXJ2aWNlcy9CYXNrZXQvUHJvdG9zL2Jhc2tldC5wcm90bxIJQmFza2V0\",\n            \"QXBpIhIKEEdldEJhc2tldFJlcXVlc3QiPgoWQ3VzdG9tZXJCYXNrZXRSZXNw\",\n            \"b25zZRIkCgVpdGVtcxgBIAMoCzIVLkJhc2tldEFwaS5CYXNrZXRJdGVtIjIK\",\n            \"CkJhc2tldEl0ZW0SEgoKcHJvZHVjdF9pZBgCIAEoBRIQCghxdWFudGl0eRgG\"));",
			// a post's slug and the id its site gives it
			"    \"url\": \"https://medium.com/androiddevelopers/convert-yuv-to-rgb-for-camerax-imageanalysis-6c627f3a0292\",",
			"    \"url\": \"https://medium.com/androiddevelopers/brushing-up-on-compose-text-coloring-84d7d70dd8fa\",",
			// an INSERT's other columns beside its password's
			"insert into users (id,email,password,first_name,last_name) values ('rob','rob@example.com','password','Rob','Winch');",
			// a package's coordinate, a banner, a header's stand-in
			"\timplementation 'com.j256.two-factor-auth:two-factor-auth:1.3'",
			"   <!-- ================= METHOD INVOCATION AUTHORIZATION ==================== -->",
			"            client-secret: facebook-client-secret",
			// every Laravel app's .htaccess, User model and auth config
			"    # Handle Authorization Header\n    RewriteCond %{HTTP:Authorization} .\n    RewriteRule .* - [E=HTTP_AUTHORIZATION:%{HTTP:Authorization}]\n\n    # Handle X-XSRF-Token Header\n    RewriteCond %{HTTP:x-xsrf-token} .\n    RewriteRule .* - [E=HTTP_X_XSRF_TOKEN:%{HTTP:X-XSRF-Token}]",
			"        return [\n            'email_verified_at' => 'datetime',\n            'password' => 'hashed',\n        ];",
			"    'defaults' => [\n        'guard' => env('AUTH_GUARD', 'web'),\n        'passwords' => env('AUTH_PASSWORD_BROKER', 'users'),\n    ],",
			// Elixir: an Erlang call, a key's default named as the key, a token's namespace, a
			// generator's field spec
			"    token = :crypto.strong_rand_bytes(@rand_size)\n    hashed_token = :crypto.hash(@hash_algorithm, token)",
			"    csrf_token_key = Keyword.get(session_config, :csrf_token_key, \"_csrf_token\")",
			"      iex> token = Phoenix.Token.sign(MyAppWeb.Endpoint, \"user auth\", user_id)",
			"      mix phx.gen.live Blog Post posts title slug:unique votes:integer cost:decimal\n                      tags:array:text popular:boolean drafted_at:datetime\n                      secret:uuid:redact announcement_date:date alarm:time",
			// a share of runs that passed
			"```json\n{\n  \"totalRuns\": 2,\n  \"passedRuns\": 1,\n  \"passRate\": \"50%\"\n}\n```",
			"pass_rate = passed_runs / total_runs",
			// a coding agent's session (the eleventh session build's development half): a
			// contraction after pass:, a regular expression's class, a dashboard's link, a
			// backup's generated file names, tmux's window list, a non-null variable
			"Got it. I’ll skip core changes and do a docs-only pass: I’ll locate the triage/staleness guidance in the repo",
			"rg -n \"sk-[A-Za-z0-9]|Bearer [A-Za-z0-9]|Authorization|api_key: [^$]|token: [^$]\" live-proxy-dogfood README.md || true",
			"Cloudflare Pages\tpass\t0\thttps://dash.cloudflare.com/?to=/0f1e2d3c4b5a69788796a5b4c3d2e1f0/pages/view/agentv/236a00d6-91be-491f-99e6-b1d65b99b320\t",
			".beads/backup/manifest\n.beads/backup/k1o3v1rddua4pnanacuknm2d6dvd7av3.darc\n.beads/backup/x9q2m7vd8ka3pnanr4uknm2d6dvd7zz1.darc",
			"hermes:0:codex:~/projects/tsoyang-org/hermes-deploy\nopenai-oauth:0:codex:~/workspaces/global-ws\nphoenix:0:codex:~/workspaces/global-ws",
			"                apiKey: apiKey!,",
			// Rust slices and zeroed arrays under a key's name (FSM1/cipher-box, MIT, the
			// twelfth session build's development half)
			"pub fn decrypt(user_private_key: &[u8], data: &[u8]) -> Result<Vec<u8>, Error> {",
			"    let private_key_arr: [u8; 32] = match private_key.try_into() {",
			"    let private_key = [0u8; 32];",
			// a lexer's keyword compared with a token's text (golang.org/x/net's webdav, BSD)
			"\t\tif tokenStr == \"Not\" {",
			// OpenSSL's published FIPS integrity key (Apache-2.0, as Node.js vendors it)
			"#define FIPS_KEY_STRING \"f4556650ac31d35461610bac4ed81b1a181b2d8a43ea2854cbae22ca74560813\"",
			// Go modules: an RFC's ABNF, a field with a comment, an SSH algorithm, prose after
			// "identified by"
			"\t// token      = 1*<any CHAR except CTLs or separators>",
			"\t\t\t\ttoken = k.Value // Reuse token",
			"\tKeyAlgoMLDSA44 = \"ssh-mldsa-44\"",
			"// // Set sets the e to be used for the encoding scheme identified by name. Only",
			// argparse's metavar in a usage text (masked, it was then masked inside DO_API_TOKEN too)
			"usage: digital_ocean.py [--refresh-cache] [--env] [--api-token API_TOKEN]\n\noptional arguments:\n  --env, -e             Display DO_API_TOKEN\n  --api-token API_TOKEN, -a API_TOKEN",
		)
		// A PNG's base64 wrapped at 76 columns, read from its middle (an SVG icon's embedded
		// image, the data: URI out of the text).
		require.Equal(t, wrappedPayload, san.NewSession(SessionHints{}).SanitizeText(wrappedPayload))
	})
	t.Run("masked", func(t *testing.T) {
		requireMasked(t, san, []maskedRow{
			{"insert into users (id,email,password,first_name,last_name) values ('rob','rob@example.com','Zx8kq2pLm9','Rob','Winch');", "Zx8kq2pLm9"},
			{"INSERT INTO users (id, username, api_token) VALUES (1, 'alice', 'Zx8kq2pLm9Qw4rT7'), (2, 'bob', 'Qw4rT7Zx8kq2pLm9');", "Qw4rT7Zx8kq2pLm9"},
			{"INSERT INTO settings (name, value) VALUES ('smtp_password', 'Zx8kq2pLm9');", "Zx8kq2pLm9"},
			{"            client-secret: Zx8kq2pLm9Qw4rT7", "Zx8kq2pLm9Qw4rT7"},
			{"Authorization = \"Zx8kq2pLm9Qw4rT7\"", "Zx8kq2pLm9Qw4rT7"},
			{"    api_keys: [:Zx8kq2pLm9Qw4rT7aB3dE5fG]", "Zx8kq2pLm9Qw4rT7aB3dE5fG"},
			{"    \"url\": \"https://example.com/reset?token=Zx8kq2pLm9Qw4rT7aB3dE5fG\",", "Zx8kq2pLm9Qw4rT7aB3dE5fG"},
			{"            'password' => env('DB_PASSWORD', 'Zx8kq2pLm9'),", "Zx8kq2pLm9"},
			{"BROKER_PASSWORD=Zx8kq2pLm9", "Zx8kq2pLm9"},
			{"Authorization: %{Zx8kq2pLm9Qw4rT7", "Zx8kq2pLm9Qw4rT7"},
			{"mysql_user --api-token Zx8kq2pLm9Qw4rT7, -a Zx8kq2pLm9Qw4rT7", "Zx8kq2pLm9Qw4rT7"},
			{"password = \"cackle7!\"", "cackle7!"},
			{"if password == \"swordfish\" {", "swordfish"},
			{"CREATE USER app IDENTIFIED BY Zx8kq2pLm9.", "Zx8kq2pLm9"},
			{"token = Zx8kq2pLm9Qw4rT7 // prod", "Zx8kq2pLm9Qw4rT7"},
			{"secret: [u8; 32] = *b\"Zx8kq2pLm9Qw4rT7aB3dE5fG7hJ9kL1m\";", "Zx8kq2pLm9Qw4rT7aB3dE5fG7hJ9kL1m"},
			{"x-auth-token: Zx8kq2pLm9Qw4rT7", "Zx8kq2pLm9Qw4rT7"},
			{"curl https://example.com/files/zx8kq2plm9qw4rt7ab3de5fg7hj9kl1m.json?token=Zx8kq2pLm9Qw4rT7aB3dE5fG", "Zx8kq2pLm9Qw4rT7aB3dE5fG"},
			{"secret:Zx8kq2pLm9Qw4rT7aB3dE5fG", "Zx8kq2pLm9Qw4rT7aB3dE5fG"},
		})
		// The same block opening as DER does (a PKCS#12 store printed by base64) is not taken
		// for an image's payload, nor a block of PEM's 64 columns.
		require.True(t, wrappedBinaryBlock(wrappedPayload, 77*5, 77*5+76))
		require.False(t, wrappedBinaryBlock("MIIJ"+wrappedPayload[4:], 77*5, 77*5+76))
		pem := strings.ReplaceAll(wrappedPayload, "\n", "")
		var b strings.Builder
		for ; len(pem) > 64; pem = pem[64:] {
			b.WriteString(pem[:64] + "\n")
		}
		require.False(t, wrappedBinaryBlock(b.String(), 65*5, 65*5+64))
	})
}

// wrappedPayload is 2 400 bytes of a compressed image's kind (random to a reader, from a fixed
// seed) in base64 wrapped at 76 columns, as coreutils' base64 and an SVG's embedded PNG write it.
var wrappedPayload = func() string {
	r := rand.New(rand.NewPCG(1, 2))
	raw := make([]byte, 2400)
	for i := range raw {
		raw[i] = byte(r.Uint32())
	}
	enc := base64.StdEncoding.EncodeToString(raw)
	var b strings.Builder
	for len(enc) > 76 {
		b.WriteString(enc[:76] + "\n")
		enc = enc[76:]
	}
	return b.String() + enc
}()
