package vibe

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestCredentialCalls: a password literal passed by position to what takes an account and
// its password is masked, the arguments over several lines too, the account and the rest of
// the call kept; a variable, a call, a placeholder or another argument is not.
func TestCredentialCalls(t *testing.T) {
	t.Parallel()
	san := testSanitizer(t)
	for _, tt := range []struct{ in, secret, kept string }{
		{`var de = new DirectoryEntry("LDAP://dc01.corp.local", "CORP\\svc", "Zq8plM3xw");`, "Zq8plM3xw", `"CORP\\svc"`},
		{"new DirectoryEntry(\"LDAP://EXAMPLE.COM\",\n          \"ADMN@EXAMPLE.COM\",\n          \"Rrhh1234\");\n", "Rrhh1234", "ADMN@EXAMPLE.COM"},
		{"var c = new System.Net.NetworkCredential(\n    \"svc_backup\",\n    \"Qw7zLp2mXa\", \"CORP\");", "Qw7zLp2mXa", `"CORP"`},
		{`new PasswordAuthentication("mailer", "Sm7pPass!x".toCharArray())`, "Sm7pPass!x", `"mailer"`},
		{`conn = DriverManager.getConnection("jdbc:mysql://db/app", "root", "Jdbc9pass");`, "Jdbc9pass", `"root"`},
		{`$db = mysqli_connect("localhost", "root", 'Mq7sqlPw!', "shop");`, "Mq7sqlPw!", `"shop"`},
		{`$pdo = new PDO('mysql:host=db;dbname=app', 'app', 'PdoPass77x');`, "PdoPass77x", `'app'`},
		{`ftp = ftplib.FTP("ftp.corp.io", "deploy", "Ftp7passX")`, "Ftp7passX", `"deploy"`},
		{`creds := credentials.NewStaticCredentialsProvider("AKIDEXAMPLE1", "wJalrXUtnFEMI7K7MDENGbPxRfiCY", "")`, "wJalrXUtnFEMI7K7MDENGbPxRfiCY", "NewStaticCredentialsProvider("},
		{`req.SetBasicAuth("admin", "h0rse-Battery")`, "h0rse-Battery", `"admin"`},
		{`ldap_bind($ds, "cn=admin,dc=corp", "Ld4pSecret")`, "Ld4pSecret", "cn=admin"},
		{`server.login(sender_email, "Sm7pPassw0rd")`, "Sm7pPassw0rd", "sender_email"},
		{`ks.load(new FileInputStream("app.p12"), "Ks7orePass!".toCharArray());`, "Ks7orePass!", `"app.p12"`},
		{`Key k = keyStore.getKey("signing", "K3yPassw0rd".toCharArray());`, "K3yPassw0rd", `"signing"`},
		{`kmf.init(ks, "KmfPassw0rd".toCharArray());`, "KmfPassw0rd", "kmf.init(ks"},
		{`new PBEKeySpec("Pbe7Passw0rd".toCharArray(), salt, 65536, 256)`, "Pbe7Passw0rd", "65536"},
	} {
		out := san.NewSession(SessionHints{}).SanitizeText(tt.in)
		require.NotContains(t, out, tt.secret, "%q", tt.in)
		require.Contains(t, out, "[redacted:password/", "%q → %q", tt.in, out)
		require.Contains(t, out, tt.kept, "%q → %q", tt.in, out)
	}
	for _, in := range []string{
		`new DirectoryEntry(path, user, password)`,
		`new NetworkCredential(cfg.User, Environment.GetEnvironmentVariable("SVC_PASSWORD"))`,
		`DriverManager.getConnection(url, "root", System.getenv("DB_PASS"))`,
		`mysqli_connect("localhost", "root", "", "shop")`,
		`new PDO($dsn, 'app', '${DB_PASSWORD}')`,
		`new NetworkCredential("user", "<password>")`,
		`DriverManager.getConnection("jdbc:h2:mem:test")`,
		`MyDirectoryEntry("a", "b", "Zq8plM3xw") and DirectoryEntryFactory("a", "b", "Zq8plM3xw")`,
		`ftplib.FTP("ftp.corp.io")`,
		`new PDO('sqlite::memory:', null, "a" + suffix)`,
		`server.login(sender_email, password)`,
		`ks.load(new FileInputStream("app.p12"), password);`,
		`config.load(path, "defaults-section")`,
		`app.init(ctx, "production-mode")`,
	} {
		require.Equal(t, in, san.NewSession(SessionHints{}).SanitizeText(in))
	}
}
