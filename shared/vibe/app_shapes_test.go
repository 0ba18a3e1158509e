package vibe

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// The kept rows quote lines of BurntSushi/ripgrep (MIT or Unlicense), heartcombo/devise
// (MIT), laravel/laravel (MIT), dotnet/eShop (MIT), android/nowinandroid (Apache-2.0) and
// spring-projects/spring-security-samples (Apache-2.0, its files' headers). The rows of
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
		)
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
		})
	})
}
