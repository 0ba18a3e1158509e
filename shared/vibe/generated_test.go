package vibe

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestGeneratedSecrets: what a secret-generating command prints is masked, in the same text
// and at the opening of the texts that follow it; digests, short values and other output
// are not.
func TestGeneratedSecrets(t *testing.T) {
	t.Parallel()
	san := testSanitizer(t)
	const hex64 = "c03888ad3e21c5cf5f1dfd9c9b9f89900715dc1ac1a27df8713e4731de361b43"
	masked := "[redacted:password/generated-secret]"

	// One text: the command, then its output.
	for _, tt := range []struct{ name, in, want string }{
		{"openssl hex", "$ openssl rand -hex 32\n" + hex64 + "\n$ ", "$ openssl rand -hex 32\n" + masked + "\n$ "},
		{"python secrets", "$ python3 -c 'import secrets; print(secrets.token_urlsafe(32))'\nq3Vb9XkL2mZ7pR4tW8yN1cF6hJ0sD5gA_xE-uI3oK9M",
			"$ python3 -c 'import secrets; print(secrets.token_urlsafe(32))'\n" + masked},
		{"urandom", "$ head -c 32 /dev/urandom | base64\n\nk3J9vQx2Lm8Rz7Wt4Yp1Nc6Hf0Sd5Ga+Xe/Ui3Ok9M=", "$ head -c 32 /dev/urandom | base64\n\n" + masked},
		{"artisan", "$ php artisan key:generate --show\nbase64:Zm9vYmFyYmF6cXV4MTIzNDU2Nzg5MGFiY2RlZmdo=", "$ php artisan key:generate --show\n" + masked},
		{"pwgen", "$ pwgen -s 20 2\nAh7Kq2Lx9Vb3Nm5Tz8Wc\nPr4Yt6Ue1Io9Sd3Fg7Hj", "$ pwgen -s 20 2\n" + masked + "\n" + masked},
		// Not generated secrets: a value too short to be one, a digest printed with its file,
		// output that is not a lone token, a UUID, hex with no command before it.
		{"short", "$ openssl rand -hex 4\n3fa9c2d1", "$ openssl rand -hex 4\n3fa9c2d1"},
		{"digest with its file", "$ openssl rand -hex 32 > key.hex && sha256sum key.hex\n" + hex64 + "  key.hex",
			"$ openssl rand -hex 32 > key.hex && sha256sum key.hex\n" + hex64 + "  key.hex"},
		{"other output", "$ openssl rand -hex 32\nopenssl: command not found", "$ openssl rand -hex 32\nopenssl: command not found"},
		{"uuidgen", "$ uuidgen\n7B1E4C2A-9F3D-4E8B-A1C6-0D5F2E9B8A73", "$ uuidgen\n7B1E4C2A-9F3D-4E8B-A1C6-0D5F2E9B8A73"},
		{"a commit", "$ git rev-parse HEAD\n3f9a1c2e5b7d4a6f8e0c1b2d3a4f5e6d7c8b9a0f", "$ git rev-parse HEAD\n3f9a1c2e5b7d4a6f8e0c1b2d3a4f5e6d7c8b9a0f"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			require.Equal(t, tt.want, san.NewSession(SessionHints{}).SanitizeText(tt.in))
		})
	}

	t.Run("result in the next event", func(t *testing.T) {
		ss := san.NewSession(SessionHints{})
		start := ss.SanitizeEvent(Event{EventID: "a", EventType: TypeToolCall, Summary: "Bash: openssl rand -hex 32",
			Tool: &ToolBody{Name: "Bash", Phase: "start", ArgumentsPreview: `{"command":"openssl rand -hex 32"}`}})
		require.Equal(t, `{"command":"openssl rand -hex 32"}`, start.Tool.ArgumentsPreview)
		end := ss.SanitizeEvent(Event{EventID: "b", EventType: TypeToolCall, Summary: "Bash: done",
			Metadata: &EventMetadata{RequestID: "req_011CSHoEeqs5C35K2UUqR7Fy", ResponseID: "0f9e8d7c6b5a49382716a5b4c3d2e1f0"},
			Tool:     &ToolBody{Name: "Bash", Phase: "end", ResultPreview: hex64 + "\n"}})
		require.Equal(t, masked+"\n", end.Tool.ResultPreview)
		require.Equal(t, "req_011CSHoEeqs5C35K2UUqR7Fy", end.Metadata.RequestID, "provider ids are never generated secrets")
		require.Equal(t, "0f9e8d7c6b5a49382716a5b4c3d2e1f0", end.Metadata.ResponseID)
		// Once its output was masked, the next lone hex is a digest again.
		const digest = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"
		require.Equal(t, digest, ss.SanitizeText(digest))
	})

	t.Run("only the next few texts", func(t *testing.T) {
		ss := san.NewSession(SessionHints{})
		ss.SanitizeText(`{"command":"rails secret"}`)
		for range generatorPending {
			require.Equal(t, "done", ss.SanitizeText("done"))
		}
		require.Equal(t, hex64, ss.SanitizeText(hex64))
	})

	t.Run("remembered", func(t *testing.T) {
		ss := san.NewSession(SessionHints{})
		ss.SanitizeText("$ openssl rand -hex 32\n" + hex64)
		require.False(t, strings.Contains(ss.SanitizeText("JWT_SIGNING="+hex64), hex64), "the secret seen again later is masked")
	})
}

// TestStoredSecrets: the line a command reading a stored secret prints is masked whole, in
// the same text and at the opening of the next; its error and other commands' output are not.
func TestStoredSecrets(t *testing.T) {
	t.Parallel()
	san := testSanitizer(t)
	masked := "[redacted:password/stored-secret]"
	for _, tt := range []struct{ name, in, want string }{
		{"pass", "$ pass show db/prod\nhunter2 correct horse\n", "$ pass show db/prod\n" + masked + "\n"},
		{"keychain", "$ security find-generic-password -s deploy -w\nT0ps3cr3t!#", "$ security find-generic-password -s deploy -w\n" + masked},
		{"1password", "$ op read \"op://Private/db/password\"\nsunflower-4-ever", "$ op read \"op://Private/db/password\"\n" + masked},
		{"vault", "$ vault kv get -field=password secret/app\nblue-Mountain-42", "$ vault kv get -field=password secret/app\n" + masked},
		{"ecr", "$ aws ecr get-login-password --region eu-west-1\neyJwYXlsb2FkIjoiWnE5WHYyTG03UHc0UnQ4SyJ9", "$ aws ecr get-login-password --region eu-west-1\n" + masked},
		{"docker secret", "$ cat /run/secrets/db_password\nsunflower-4-ever", "$ cat /run/secrets/db_password\n" + masked},
		{"kubectl secret decoded", "$ kubectl get secret db -o jsonpath='{.data.password}' | base64 -d\nsunflower-4-ever", "$ kubectl get secret db -o jsonpath='{.data.password}' | base64 -d\n" + masked},
		{"echo of a secret variable", "$ echo \"$DB_PASSWORD\"\nsunflower-4-ever", "$ echo \"$DB_PASSWORD\"\n" + masked},
		{"gcloud secret by its name", "$ gcloud secrets versions access latest --secret=db-password\nsunflower-4-ever", "$ gcloud secrets versions access latest --secret=db-password\n" + masked},
		// The tool's error, and a command that reads no secret.
		{"error", "$ pass show db/prod\nError: db/prod is not in the password store.", "$ pass show db/prod\nError: db/prod is not in the password store."},
		{"keychain error", "$ security find-generic-password -s x -w\nsecurity: SecKeychainSearchCopyNext: The specified item could not be found in the keychain.",
			"$ security find-generic-password -s x -w\nsecurity: SecKeychainSearchCopyNext: The specified item could not be found in the keychain."},
		{"pass lists", "$ pass\nPassword Store\n└── db", "$ pass\nPassword Store\n└── db"},
		{"other output", "$ git log -1 --format=%s\nfix the pass show parser", "$ git log -1 --format=%s\nfix the pass show parser"},
		{"echo of another variable", "$ echo $TOKEN_FILE\nsrv-app-token.txt\n$ echo $PATH\nusr-local-bin", "$ echo $TOKEN_FILE\nsrv-app-token.txt\n$ echo $PATH\nusr-local-bin"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			// The output line is what is measured: the command's line is the other rules'
			// (a path rewritten, a split value read across the break).
			out := san.NewSession(SessionHints{}).SanitizeText(tt.in)
			_, gotOut, _ := strings.Cut(out, "\n")
			_, wantOut, _ := strings.Cut(tt.want, "\n")
			require.Equal(t, wantOut, gotOut, out)
		})
	}
	t.Run("result in the next event", func(t *testing.T) {
		ss := san.NewSession(SessionHints{})
		require.Equal(t, `{"command":"pass show db/prod"}`, ss.SanitizeText(`{"command":"pass show db/prod"}`))
		require.Equal(t, masked+"\n", ss.SanitizeText("sunflower-4-ever\n"))
		require.Equal(t, "sunflower", ss.SanitizeText("sunflower"), "once masked, the next line is not")
	})
}

// FuzzGeneratedSecrets: a token a generating or reading command printed is masked whatever
// text comes before the command and after the token, and whichever command it was.
func FuzzGeneratedSecrets(f *testing.F) {
	commands := []string{"openssl rand -hex 32", "openssl rand -base64 24", "python3 -c 'import secrets; print(secrets.token_hex(32))'",
		"head -c 32 /dev/urandom | base64", "pwgen -s 24 1", "rails secret", "mix phx.gen.secret",
		// commands that print a stored secret
		"pass show db/prod", "security find-generic-password -s deploy -w", "op read op://Private/db/password",
		"gcloud secrets versions access latest --secret=db", "heroku config:get DATABASE_PASSWORD",
		"kubectl get secret db -o jsonpath='{.data.token}' | base64 -d", "echo $API_TOKEN"}
	for i := range commands {
		f.Add(uint8(i), "$ ", "\n$ ", "9f1c2e5b7d4a6f8e0c1b2d3a4f5e6d7c")
	}
	san := testSanitizer(f)
	f.Fuzz(func(t *testing.T, which uint8, before, after, raw string) {
		v, ok := fuzzValue(raw + "aB3dE5fG7hJ9kL1mN3pQ5rS7")
		if !ok || strings.Contains(before, "\n") {
			return
		}
		if after != "" && after[0] != '\n' {
			after = "\n" + after
		}
		// The command is a word of its own line: the prompt or text before it ends with a blank.
		in := before + " " + commands[int(which)%len(commands)] + "\n" + v + after
		checkPlanted(t, san, in, v)
	})
}
