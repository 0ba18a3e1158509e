package vibe

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// The kept rows are written after shapes seen in coding sessions' histories that projects
// publish beside their code (an editor's chat saved as Markdown): a business system's JSON
// records keyed by UUIDs, a cloud console's resource ids, the constants a web application
// keeps its token under, a curl command with a variable's name where the token goes, a table of a workflow's secrets by name. The
// rows of secrets are made up.

func TestSessionHistoryShapes(t *testing.T) {
	t.Parallel()
	san, err := NewSanitizer()
	require.NoError(t, err)
	t.Run("kept", func(t *testing.T) {
		requireKept(t, san,
			// a record's key beside its name and code
			`{"RegionKey":"0b6c1f9e-3d2a-4c7e-9f1b-6a5d4e3c2b1a","RegionName":"North","RegionCode":"N1"}`,
			`  "originCityKey": "7d41c2aa-58e0-4f3b-a2c9-1e6b0f9d8c37",`,
			`category_key = "c3a9e4b1-7f60-4d2e-8b15-29f0c6d7e8a4"`,
			`{"WarehouseKey":"e2f4a6c8-1b3d-4f5a-9c7e-0d2b4f6a8c1e","CurrencyKey":"5a7c9e1b-3d5f-4a2c-8e6b-1f3d5a7c9e2b"}`,
			// Alibaba Cloud's resources as its console and CLI print them
			"- network: VPC vpc-bp1k7c2x9m4q8w3e5r6t0, vSwitch vsw-2zeh3j8k1l5m9n2b4v7c6 (same VPC as the RDS)",
			"aliyun ecs DescribeSecurityGroups --SecurityGroupId sg-uf6k2x9q7w4m8r3t5y1z0",
			// the name a token is stored under
			"export const TOKEN_KEY = 'jwt_token';",
			`    private const val TOKEN_KEY = "jwt_token"`,
			`TOKEN_KEY = "app_jwt_token"`,
			// a variable's name where the token goes
			`curl -H "Authorization: Bearer ADMIN_TOKEN" http://localhost:8080/api/admin/users`,
			`  -H "Authorization: Bearer SERVICE_JWT" \`,
			// a workflow's secrets listed by name: the host and the user beside the key
			"| Secret | What to prepare |\n|--------|-----------------|\n| `DEPLOY_HOST` | the server's address |\n| `DEPLOY_SSH_KEY` | the whole private key |\n\nThe workflow reads `DEPLOY_HOST` as ${{ secrets.DEPLOY_HOST }}.",
		)
	})
	t.Run("masked", func(t *testing.T) {
		requireMasked(t, san, []maskedRow{
			{`{"apiKey":"0b6c1f9e-3d2a-4c7e-9f1b-6a5d4e3c2b1a"}`, "0b6c1f9e-3d2a-4c7e-9f1b-6a5d4e3c2b1a"},
			{`  "licenseKey": "7d41c2aa-58e0-4f3b-a2c9-1e6b0f9d8c37",`, "7d41c2aa-58e0-4f3b-a2c9-1e6b0f9d8c37"},
			{`routing_key = "c3a9e4b1-7f60-4d2e-8b15-29f0c6d7e8a4"`, "c3a9e4b1-7f60-4d2e-8b15-29f0c6d7e8a4"},
			{`{"RegionKey":"Zx8kq2pLm9Qw4rT7vB3n","RegionName":"North"}`, "Zx8kq2pLm9Qw4rT7vB3n"},
			{"token: vpc-Zx8kq2pLm9Qw4rT7vB3nH6", "vpc-Zx8kq2pLm9Qw4rT7vB3nH6"},
			{"key-bp1k7c2x9m4q8w3e5r6t0Zx8kq2pLm9QwB", "key-bp1k7c2x9m4q8w3e5r6t0Zx8kq2pLm9QwB"},
			{"const ACCESS_TOKEN_KEY = '1234567-abcDEFghiJKLmnoPQRstu'", "1234567-abcDEFghiJKLmnoPQRstu"},
			{"SECRET_KEY = 'jwt_token'", "jwt_token"},
			{`curl -H "Authorization: Bearer dev_admin" http://localhost:8080/api`, "dev_admin"},
			{`curl -H "Authorization: Bearer ADMIN_PASSWORD" http://localhost:8080/api`, "ADMIN_PASSWORD"},
			{"| Secret | Value |\n|--------|-------|\n| `DHOY_YZQ` | the staging one |", "DHOY_YZQ"},
			{"| Secret | What to prepare |\n|--------|-----------------|\n| Zx8kq2pLm9Qw4rT7 | the server's |", "Zx8kq2pLm9Qw4rT7"},
		})
	})
}
