package vibe

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// The kept rows are written after shapes seen in coding sessions' histories that projects
// publish beside their code (an editor's chat saved as Markdown): a business system's JSON
// records keyed by UUIDs, a cloud console's resource ids, the constants a web application
// keeps its token under, a curl command with a variable's name where the token goes, a table of a workflow's secrets by name, a task list naming its features, pip's output, an editor's remote links. The
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
			// a task's description that names its features, SQL's words among them
			"Description: Create user authentication with login, registration, and password reset.",
			"- [ ] create user profile page with avatar upload and password change",
			// pip's metadata file of a cached wheel
			"  Using cached greenlet-3.1.1-cp311-cp311-manylinux_2_24_x86_64.manylinux_2_28_x86_64.whl.metadata (3.8 kB)",
			// an editor's link to a file on a remote host, its authority the remote's kind and host
			"| `vscode-remote://ssh-remote%2B3c9e1f0a-7b2d-4e6f-a8c1-5d9b0e2f4a6c@3c9e1f0a-7b2d-4e6f-a8c1-5d9b0e2f4a6c-00-2kq8x1m7v9wz3.picard.replit.dev:22/home/runner/workspace/app/models.py` | L14 | `class User:` |",
			"vscode-remote://ssh-remote+3c9e1f0a-7b2d-4e6f-a8c1-5d9b0e2f4a6c@3c9e1f0a-7b2d-4e6f-a8c1-5d9b0e2f4a6c-00-2kq8x1m7v9wz3.picard.replit.dev:22/home/runner/workspace/app/models.py",
			// a field's type and its comment set apart by blanks; a Rust slice's type written by a
			// JSON string as \u0026[u8] (the evaluation's development transcripts)
			"export interface FolderKeys {\n  ipnsPrivateKeyEncrypted: string;  // ECIES(ipnsPrivateKey, ownerPublicKey)\n  fileId: string;\n}",
			"  privateKey: string;  // hex",
			"  token: string,\t// the bearer token",
			`{"old_string":"    pub fn sign(\n        metadata: \u0026FolderMetadata,\n        private_key: \u0026[u8],\n        public_key: \u0026[u8],\n    ) -\u003e Result"}`,
			// projects' commits side by side, a map of models' names, pnpm's virtual store (the
			// evaluation's development transcripts)
			"Pinned: Python 9f1c2e3d4b5a69788796a5b4c3d2e1f0a9b8c7d6, Braintrust 0a1b2c3d4e5f60718293a4b5c6d7e8f901234567, Opik 7e6d5c4b3a29180f7e6d5c4b3a29180f7e6d5c4b",
			"export AZURE_OPENAI_DEPLOYMENT_NAME_MAP=gpt-4=my-gpt4,gpt-4o=my-gpt4o",
			"    at node_modules/.pnpm/@cloudflare+vitest-pool-workers@0.16.20_@cloudflare+workers-types@4.20260628.1_@vitest+_5c2e8a1f9d3b7c4e6a0f2d8b1e9c3a7f/node_modules/@cloudflare/vitest-pool-workers/dist/worker/index.mjs:42:7",
			// a logo on Brandfetch's CDN, its client id in the query
			"- **SVG**: `https://cdn.brandfetch.io/idW5s392j1/theme/dark/logo.svg?c=1bxid64Mup7aczewSAYMX&t=1717171717101`",
			// SQL handed to a command's standard input; a status printed for a secret; a route's
			// parameter folder in a relative Windows path; the key records are matched on
			`railway run npx prisma db execute --stdin <<< "SELECT COUNT(*) FROM certificates;"`,
			"console.log('  JWT_SECRET: ⚠️  NOT SET');",
			"| `.\\frontend\\app\\api\\delivery-notes\\[id]\\print\\route.ts` | L12 |",
			`{"matchingKey": "ELBOW_90_LR|STD|2", "confidence": 100}`,
			// the key a local model server's documentation says to pass; a function that makes a
			// rate limiter's key; Phoenix LiveView's ids; pg_dump's restrict key
			`client = OpenAI(base_url="http://localhost:11434/v1", api_key="ollama")`,
			`      "apiKey": "lm-studio",`,
			`client = OpenAI(base_url="http://localhost:8000/v1", api_key="EMPTY")`,
			`{"s":"= rateLimit({\n    ...limiterOptions,\n    keyGenerator: () => ip || \"unknown\"\n  });"}`,
			`#Phoenix.LiveView.Socket<id: "phx-GHDoI6bQT2oMCQok", endpoint: MyAppWeb.Endpoint, view: MyAppWeb.BookingLive.Index>`,
			"--\n-- PostgreSQL database dump\n--\n\n\\restrict RTOv61Tbf0GDkMeQNOM51DqNfNckXDJiUXBWLj8Nb01HsXys381ZxAYlcTbHOFb\n\nSET statement_timeout = 0;",
			// a delta listing's position; Secret Manager's secrets mounted by gcloud run
			`      "sinceToken": "639033653321809253-1",`,
			"gcloud run services update api --region asia-east1 --update-secrets=PGVECTOR_DATABASE_URL=pgvector-database-url:latest",
			"gcloud run deploy api --set-secrets=DB_PASSWORD=db-password:latest,API_KEY=api-key:2",
			"gcloud run deploy api --set-secrets DB_PASSWORD=db-password:3",
			// Dolt's archives named by their hash, as git status lists beads' backups
			".beads/README.md\n.beads/backup/v8p5mslo1dk29rd22359t65di1t27aoe.darc\n.beads/backup/manifest\n",
			// the page Cloudflare serves a client it challenges, as curl prints it
			`<script>(function(){window._cf_chl_opt = {cvId: '3',cZone: 'example.ai',cType: 'managed',cRay: '9b081c0a9c74b35f',cH: 'rm_XnTJMsOG1x9_0g2JtN6iHyxOO14EOyYGX91FY4qs-1750000000-1.2.1.1-TYwQT_bRkTlZYMVVhmBAQhw9StktuAd875KNjMdqb_L9W6lRmEB3wtJDEGjViiG6',cUPMDTk:"\/download?__cf_chl_tk=pxAXU38j2xe.cBckz3cZp60mMX.9POCsHDGptxyA9vE-1750000000-1.0.1.1-y4DKx8wq2mZ3nB7vC1xR5tL9pQ",cFPWv: 'b'};</script>`,
			// a key's prefix and the stand-in people type for its body
			"// Our config has the values\nconfig.langsmithApiKey = \"ls-abc123\"\nconfig.langsmithTracing = true",
			"process.env.LANGSMITH_API_KEY = config.langsmithApiKey; // \"ls-abc123\" ✅",
			// a local database's default password, its account's own name, beside the account and a
			// local host
			"export default {\n  host: process.env.DB_HOST || 'localhost',\n  username: process.env.DB_USERNAME || 'postgres',\n  password: process.env.DB_PASSWORD || 'postgres',\n}",
			"DB_HOST=localhost\nDB_PORT=5432\nDB_USERNAME=postgres\nDB_PASSWORD=postgres\nDB_DATABASE=app",
			"        host: configService.get<string>('DB_HOST', 'localhost'),\n        username: configService.get<string>('DB_USERNAME', 'postgres'),\n        password: configService.get<string>('DB_PASSWORD', 'postgres'),",
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
			{"CREATE USER app WITH PASSWORD 'reset';", "reset"},
			{"ALTER USER app PASSWORD Zx8kq2pLm9;", "Zx8kq2pLm9"},
			{"  Using cached Zx8kq2pLm9Qw4rT7vB3nH6jF1.metadata (6.6 kB)", "Zx8kq2pLm9Qw4rT7vB3nH6jF1"},
			{"git clone https://ghp_Zx8kq2pLm9Qw4rT7vB3nH6jF1kD5sA0gL2wE@github.com/o/r.git", "ghp_Zx8kq2pLm9Qw4rT7vB3nH6jF1kD5sA0gL2wE"},
			{"vscode-remote://dev+Zx8kq2pLm9Qw4rT7vB3nH6@example.dev/x", "Zx8kq2pLm9Qw4rT7vB3nH6"},
			{"  password: Zx8kq2pLm9  // the old one", "Zx8kq2pLm9"},
			{"cloudsmith 0a1b2c3d4e5f60718293a4b5c6d7e8f901234567", "0a1b2c3d4e5f60718293a4b5c6d7e8f901234567"},
			{`password = "pw-abc123"`, "pw-abc123"},
			{"DB_HOST=db.corp.io\nDB_USERNAME=postgres\nDB_PASSWORD=postgres", "DB_PASSWORD=postgres"},
			{"DB_HOST=localhost\nDB_USERNAME=app\nDB_PASSWORD=postgres", "DB_PASSWORD=postgres"},
			{`my $pw = $cfg->{password} // "Zx8kq2pLm9Qw";`, "Zx8kq2pLm9Qw"},
			{`const password = process.env.DB_PASSWORD || "Zx8kq2pLm9Qw"; // the old one`, "Zx8kq2pLm9Qw"},
			{`apiKey = "sk-abc123Zx8kq2pLm9"`, "sk-abc123Zx8kq2pLm9"},
			{"window._cf_chl_opt = {cRay: '9b08'};</script>\n<script>const apiKey = 'sk_live_Zx8kq2pLm9Qw4rT7vB3nH6jF';</script>", "Zx8kq2pLm9Qw4rT7vB3nH6jF"},
			{".beads/backup/Zx8kq2pLm9Qw4rT7vB3nH6jF1kD5sA0g.env", "Zx8kq2pLm9Qw4rT7vB3nH6jF1kD5sA0g"},
			{"https://example.com/[user]/Zx8kq2pLm9Qw4rT7vB3nH6jF1kD5sA0gL2wE/x", "Zx8kq2pLm9Qw4rT7vB3nH6jF1kD5sA0gL2wE"},
			{"gcloud run deploy api --set-secrets=DB_PASSWORD=Zx8kq2pLm9Qw:3", "Zx8kq2pLm9Qw"},
			{"gcloud run deploy --set-secrets=X=y:1 && export DB_PASSWORD=Zx8kq2pLm9:3", "Zx8kq2pLm9"},
			{`"sinceToken": "Zx8kq2pLm9Qw4rT7vB3nH6jF1kD5"`, "Zx8kq2pLm9Qw4rT7vB3nH6jF1kD5"},
			{`api_key="ollama-Zx8kq2pLm9Qw4rT7"`, "ollama-Zx8kq2pLm9Qw4rT7"},
			{`DB_PASSWORD="EMPTY"`, "EMPTY"},
			{`keyGenerator: "Zx8kq2pLm9Qw4rT7vB3n"`, "Zx8kq2pLm9Qw4rT7vB3n"},
			{`id: "phx-GHDoI6bQT2oMCQokZx8kq2pLm9Qw"`, "phx-GHDoI6bQT2oMCQokZx8kq2pLm9Qw"},
			{"\\connect db Zx8kq2pLm9Qw4rT7vB3nH6jF1kD5", "Zx8kq2pLm9Qw4rT7vB3nH6jF1kD5"},
			{`docker login -u bob --password-stdin <<< "Zx8kq2pLm9Qw"`, "Zx8kq2pLm9Qw"},
			{`vercel env add API_TOKEN production <<< "Zx8kq2pLm9Qw"`, "Zx8kq2pLm9Qw"},
			{"JWT_SECRET: ⚠️Zx8kq2pLm9Qw4rT7", "Zx8kq2pLm9Qw4rT7"},
			{`{"matchingKey": "Zx8kq2pLm9Qw4rT7vB3n"}`, "Zx8kq2pLm9Qw4rT7vB3n"},
			{"https://cdn.example.io/logo.svg?c=1bxid64Mup7aczewSAYMX", "1bxid64Mup7aczewSAYMX"},
			{"https://cdn.brandfetch.io/idW5s392j1/logo.svg?token=1bxid64Mup7aczewSAYMX", "1bxid64Mup7aczewSAYMX"},
			{"Braintrust 0a1b2c3d4e5f60718293a4b5c6d7e8f901234567, Cloudsmith 7e6d5c4b3a29180f7e6d5c4b3a29180f7e6d5c4b", "0a1b2c3d4e5f60718293a4b5c6d7e8f901234567"},
			{"export AZURE_OPENAI_KEY_MAP=gpt-4=Zx8kq2pLm9Qw4rT7vB3n", "Zx8kq2pLm9Qw4rT7vB3n"},
			{"node_modules/.pnpm/left-pad@1.3.0/node_modules/left-pad token=Zx8kq2pLm9Qw4rT7vB3nH6", "Zx8kq2pLm9Qw4rT7vB3nH6"},
			{"  privateKey: Zx8kq2pLm9Qw4rT7vB3n;  // hex", "Zx8kq2pLm9Qw4rT7vB3n"},
			{`{"s":"        private_key: \u0026Zx8kq2pLm9Qw4rT7vB3n,\n"}`, "Zx8kq2pLm9Qw4rT7vB3n"},
			{"| Secret | What to prepare |\n|--------|-----------------|\n| Zx8kq2pLm9Qw4rT7 | the server's |", "Zx8kq2pLm9Qw4rT7"},
		})
	})
}
