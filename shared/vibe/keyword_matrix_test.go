package vibe

import (
	"encoding/json"
	"flag"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"os"
	"path"
	"slices"
	"strings"
	"testing"
)

// The keyword matrix: credentials written in every common syntax, under every common name, of
// every kind of value, and the references, stand-ins and identifiers written the same ways
// that are none. Each positive row must lose every 8-character piece of its value; each
// negative row must come out without a redaction mark. Rows that fail and are listed in
// matrixKnownFailures, with their reason, are reported and tolerated; any other failure
// fails the test, and so does a listed entry no row matches any more.

// mxStyle is how a syntax spells a name of several parts.
type mxStyle int

const (
	mxSnake  mxStyle = iota // client_secret
	mxCamel                 // clientSecret
	mxPascal                // ClientSecret
	mxKebab                 // client-secret
	mxUpper                 // CLIENT_SECRET
)

func (s mxStyle) String() string {
	return [...]string{"snake", "camel", "pascal", "kebab", "upper"}[s]
}

// mxName is a credential's name in parts; pw marks a word for a password, after which any
// literal is a secret, a weak one too.
type mxName struct {
	parts []string
	pw    bool
}

func (n mxName) spell(s mxStyle) string {
	switch s {
	case mxSnake:
		return strings.Join(n.parts, "_")
	case mxKebab:
		return strings.Join(n.parts, "-")
	case mxUpper:
		return strings.ToUpper(strings.Join(n.parts, "_"))
	}
	var b strings.Builder
	for i, p := range n.parts {
		if i == 0 && s == mxCamel {
			b.WriteString(p)
			continue
		}
		b.WriteString(strings.ToUpper(p[:1]) + p[1:])
	}
	return b.String()
}

func mxNames(words ...string) []mxName {
	var out []mxName
	for _, w := range words {
		pw := strings.HasPrefix(w, "!")
		out = append(out, mxName{parts: strings.Split(strings.TrimPrefix(w, "!"), "_"), pw: pw})
	}
	return out
}

// matrixNames are the names credentials are written under ("!": a word for a password).
var matrixNames = mxNames("!password", "!passwd", "!pwd", "!pass", "!passphrase", "secret", "client_secret", "secret_key",
	"token", "access_token", "auth_token", "refresh_token", "api_key", "apikey", "x_api_key", "access_key", "private_key",
	"credentials", "auth", "authorization", "!db_password", "!db_pass", "!mysql_root_password", "!postgres_password",
	"!redis_password", "!smtp_password", "signing_key", "encryption_key", "master_key", "session_secret", "webhook_secret",
	"!admin_password", "!user_pwd", "jwt_secret", "consumer_secret", "aws_secret_access_key", "github_token", "bot_token",
	"sas_token", "app_key", "!root_pwd", "!keystore_password", "!ftp_pass", "!wifi_passphrase")

// mxQuote is how a syntax writes a literal.
type mxQuote int

const (
	mxDouble  mxQuote = iota // "…" with \" and \\ escapes
	mxSingle                 // '…' with \' escapes
	mxDoubled                // '…' with '' for a quote (SQL, PowerShell)
	mxBare                   // unquoted to the end of a word
	mxURL                    // inside a URL or a ;-separated string: unreserved characters only
	mxXML                    // "…" in XML, entities for & < > "
	mxObjC                   // @"…"
	mxRawDQ                  // inside a quoted string already, as a placeholder's default: no quotes, braces or colons
	mxXMLText                // an element's text: entities for & and <
)

// mxSyntax is one way of writing a credential: tmpl with {N} for the name as the syntax
// spells it and {V} for the value as the syntax writes it (quotes included). refs are
// values of the syntax that name a secret without holding one, written raw in place of
// {V}: {U} is the name in upper case, {s} in snake case, {c} in camel case, {P} in Pascal
// case. names, when set, replace matrixNames (a connection string's keys, SQL's none).
type mxSyntax struct {
	id     string
	styles []mxStyle
	quote  mxQuote
	tmpl   string
	refs   []string
	names  []mxName
}

var (
	mxOwnPassword = mxNames("!password")
	mxNoName      = []mxName{{parts: []string{"password"}, pw: true}}
)

// matrixSyntaxes are the syntaxes credentials are written in.
var matrixSyntaxes = []mxSyntax{
	// Python
	{id: "py-assign", styles: []mxStyle{mxSnake, mxUpper}, quote: mxDouble, tmpl: "import os\n\n{N} = {V}\nclient = Client(host=\"db.internal\")\n",
		refs: []string{`os.environ["{U}"]`, `os.getenv("{U}")`, `get_{s}()`, `config.{s}`, `self.{s}`, `None`, `""`, `''`, `True`, `False`, `str`}},
	{id: "py-kwarg", styles: []mxStyle{mxSnake}, quote: mxDouble, tmpl: "client = Client(host=\"db.internal\", {N}={V}, timeout=30)\n",
		refs: []string{`os.environ["{U}"]`, `settings.{s}`, `None`, `args.{s}`}},
	{id: "py-dict", styles: []mxStyle{mxSnake, mxKebab, mxCamel}, quote: mxDouble, tmpl: "CONFIG = {\n    \"host\": \"db.internal\",\n    \"{N}\": {V},\n}\n",
		refs: []string{`os.environ["{U}"]`, `os.environ.get("{U}")`, `None`}},
	{id: "py-environ", styles: []mxStyle{mxUpper}, quote: mxDouble, tmpl: "os.environ[\"{N}\"] = {V}\n",
		refs: []string{`args.{s}`, `getpass.getpass()`}},
	{id: "py-typed", styles: []mxStyle{mxSnake}, quote: mxDouble, tmpl: "class Settings(BaseSettings):\n    {N}: str = {V}\n",
		refs: []string{`Field(..., env="{U}")`, `""`}},
	// JavaScript, TypeScript
	{id: "js-const", styles: []mxStyle{mxCamel, mxUpper}, quote: mxSingle, tmpl: "const {N} = {V};\nmodule.exports = { client };\n",
		refs: []string{`process.env.{U}`, `process.env["{U}"]`, `getSecret('{U}')`, `config.{c}`, `this.{c}`, `null`, `undefined`, `''`}},
	{id: "js-object", styles: []mxStyle{mxCamel, mxSnake}, quote: mxSingle, tmpl: "const config = {\n  host: 'db.internal',\n  {N}: {V},\n  port: 5432,\n};\n",
		refs: []string{`process.env.{U}`, `opts.{c}`, `null`}},
	{id: "js-process-env", styles: []mxStyle{mxUpper}, quote: mxDouble, tmpl: "process.env.{N} = {V};\n",
		refs: []string{`argv.{c}`}},
	{id: "ts-typed", styles: []mxStyle{mxCamel}, quote: mxDouble, tmpl: "export const {N}: string = {V};\n",
		refs: []string{`process.env.{U} ?? ""`, `config.get<string>("{c}")`}},
	// Go
	{id: "go-short", styles: []mxStyle{mxCamel}, quote: mxDouble, tmpl: "func main() {\n\t{N} := {V}\n\trun({N})\n}\n",
		refs: []string{`os.Getenv("{U}")`, `cfg.{P}`, `""`}},
	{id: "go-struct", styles: []mxStyle{mxPascal}, quote: mxDouble, tmpl: "cfg := Config{\n\tHost: \"db.internal\",\n\t{N}: {V},\n}\n",
		refs: []string{`os.Getenv("{U}")`, `secret.{P}`}},
	{id: "go-map", styles: []mxStyle{mxSnake, mxKebab}, quote: mxDouble, tmpl: "env := map[string]string{\"host\": \"db.internal\", \"{N}\": {V}}\n",
		refs: []string{`os.Getenv("{U}")`}},
	// Java, Kotlin
	{id: "java-field", styles: []mxStyle{mxUpper, mxCamel}, quote: mxDouble, tmpl: "public class Db {\n    private static final String {N} = {V};\n}\n",
		refs: []string{`System.getenv("{U}")`, `null`}},
	{id: "java-setter", styles: []mxStyle{mxPascal}, quote: mxDouble, tmpl: "dataSource.setUrl(\"jdbc:postgresql://db/app\");\ndataSource.set{N}({V});\n",
		refs: []string{`System.getenv("{U}")`, `props.getProperty("{s}")`}},
	{id: "kotlin-builder", styles: []mxStyle{mxCamel}, quote: mxDouble, tmpl: "val client = Client.builder()\n    .host(\"db.internal\")\n    .{N}({V})\n    .build()\n",
		refs: []string{`System.getenv("{U}")`, `config.{c}`}},
	{id: "java-annotation", styles: []mxStyle{mxCamel}, quote: mxRawDQ, tmpl: "@Value(\"${app.{N}:{V}}\")\nprivate String {N};\n"},
	{id: "kotlin-val", styles: []mxStyle{mxCamel}, quote: mxDouble, tmpl: "val {N} = {V}\n",
		refs: []string{`System.getenv("{U}")`, `BuildConfig.{U}`}},
	// C#
	{id: "cs-property", styles: []mxStyle{mxPascal}, quote: mxDouble, tmpl: "public class Options\n{\n    public string {N} { get; set; } = {V};\n}\n",
		refs: []string{`Environment.GetEnvironmentVariable("{U}")`, `null`, `string.Empty`}},
	{id: "cs-initializer", styles: []mxStyle{mxPascal}, quote: mxDouble, tmpl: "var opts = new ClientOptions\n{\n    Host = \"db.internal\",\n    {N} = {V},\n};\n",
		refs: []string{`config["{P}"]`, `Environment.GetEnvironmentVariable("{U}")`}},
	{id: "ado-connection", styles: []mxStyle{mxPascal}, quote: mxURL, names: mxNames("!password", "!pwd"),
		tmpl: "var cs = \"Server=db.internal;Database=app;User Id=sa;{N}={V};\";\n"},
	{id: "appsettings-connection", styles: []mxStyle{mxPascal}, quote: mxURL, names: mxOwnPassword,
		tmpl: "{\n  \"ConnectionStrings\": {\n    \"Default\": \"Server=tcp:db.internal,1433;Initial Catalog=app;User ID=app;{N}={V};Encrypt=True;\"\n  }\n}\n"},
	// PHP
	{id: "php-var", styles: []mxStyle{mxSnake, mxCamel}, quote: mxSingle, tmpl: "<?php\n${N} = {V};\n",
		refs: []string{`getenv('{U}')`, `$_ENV['{U}']`, `env('{U}')`, `null`}},
	{id: "php-define", styles: []mxStyle{mxUpper}, quote: mxSingle, tmpl: "<?php\ndefine('{N}', {V});\n",
		refs: []string{`getenv('{U}')`}},
	{id: "php-array", styles: []mxStyle{mxSnake}, quote: mxSingle, tmpl: "return [\n    'host' => 'db.internal',\n    '{N}' => {V},\n];\n",
		refs: []string{`env('{U}')`, `env('{U}', '')`}},
	// Ruby
	{id: "rb-assign", styles: []mxStyle{mxSnake, mxUpper}, quote: mxSingle, tmpl: "{N} = {V}\n",
		refs: []string{`ENV['{U}']`, `ENV.fetch('{U}')`, `nil`, `Rails.application.credentials.{s}`}},
	{id: "rb-hash", styles: []mxStyle{mxSnake}, quote: mxSingle, tmpl: "config = { host: 'db.internal', {N}: {V} }\n",
		refs: []string{`ENV['{U}']`, `nil`}},
	{id: "rb-rocket", styles: []mxStyle{mxSnake}, quote: mxSingle, tmpl: "config = { :host => 'db.internal', :{N} => {V} }\n",
		refs: []string{`ENV['{U}']`}},
	// Rust, C, C++, Swift, Objective-C
	{id: "rs-let", styles: []mxStyle{mxSnake}, quote: mxDouble, tmpl: "let {N} = {V};\n",
		refs: []string{`std::env::var("{U}")?`, `env::var("{U}").unwrap()`}},
	{id: "c-define", styles: []mxStyle{mxUpper}, quote: mxDouble, tmpl: "#define {N} {V}\n",
		refs: []string{`getenv("{U}")`}},
	{id: "c-char", styles: []mxStyle{mxSnake}, quote: mxDouble, tmpl: "static const char *{N} = {V};\n",
		refs: []string{`getenv("{U}")`, `NULL`}},
	{id: "swift-let", styles: []mxStyle{mxCamel}, quote: mxDouble, tmpl: "let {N} = {V}\n",
		refs: []string{`ProcessInfo.processInfo.environment["{U}"]`, `nil`}},
	{id: "objc", styles: []mxStyle{mxCamel}, quote: mxObjC, tmpl: "NSString *{N} = {V};\n",
		refs: []string{`nil`}},
	// Shell
	{id: "sh-export", styles: []mxStyle{mxUpper}, quote: mxBare, tmpl: "#!/bin/sh\nexport {N}={V}\nexec ./server\n",
		refs: []string{`"$(cat /run/secrets/db)"`, `"${VAULT_{U}}"`, `$VAULT_{U}`}},
	{id: "sh-export-quoted", styles: []mxStyle{mxUpper}, quote: mxDouble, tmpl: "export {N}={V}\n"},
	{id: "sh-prefix", styles: []mxStyle{mxUpper}, quote: mxBare, tmpl: "{N}={V} ./bin/server --port 8080\n",
		refs: []string{`$(vault kv get -field=value secret/app)`}},
	{id: "cmd-set", styles: []mxStyle{mxUpper}, quote: mxBare, tmpl: "C:\\app> set {N}={V}\nC:\\app> app.exe --serve\n",
		refs: []string{`%VAULT_{U}%`}},
	{id: "sh-trace", styles: []mxStyle{mxUpper}, quote: mxBare, tmpl: "+ {N}={V}\n+ ./deploy.sh production\n"},
	// PowerShell
	{id: "ps-assign", styles: []mxStyle{mxCamel, mxPascal}, quote: mxDoubled, tmpl: "${N} = {V}\n",
		refs: []string{`$env:{U}`, `Read-Host -AsSecureString`, `$null`}},
	{id: "ps-securestring", quote: mxDoubled, names: mxNoName, tmpl: "$secure = ConvertTo-SecureString {V} -AsPlainText -Force\n"},
	{id: "ps-password-param", styles: []mxStyle{mxPascal}, quote: mxDoubled, names: mxOwnPassword,
		tmpl: "New-LocalUser -Name svc -{N} (ConvertTo-SecureString {V} -AsPlainText -Force)\n"},
	{id: "ps-credential", quote: mxDoubled, names: mxNoName,
		tmpl: "$cred = New-Object System.Management.Automation.PSCredential('admin', (ConvertTo-SecureString {V} -AsPlainText -Force))\nInvoke-Command -ComputerName srv01 -Credential $cred\n"},
	{id: "ps-viserver", styles: []mxStyle{mxPascal}, quote: mxDoubled, names: mxOwnPassword,
		tmpl: "Connect-VIServer -Server vc.corp.local -User administrator@vsphere.local -{N} {V}\n"},
	// Config files
	{id: "dotenv", styles: []mxStyle{mxUpper}, quote: mxBare, tmpl: "APP_ENV=production\n{N}={V}\nLOG_LEVEL=info\n",
		refs: []string{`${VAULT_{U}}`, `$VAULT_{U}`, `%{U}%`}},
	{id: "dotenv-quoted", styles: []mxStyle{mxUpper}, quote: mxDouble, tmpl: "APP_ENV=production\n{N}={V}\n"},
	{id: "ini", styles: []mxStyle{mxSnake}, quote: mxBare, tmpl: "[database]\nhost = db.internal\n{N} = {V}\nport = 5432\n",
		refs: []string{`%(DB_{U})s`, `${ENV:{U}}`}},
	{id: "toml", styles: []mxStyle{mxSnake}, quote: mxDouble, tmpl: "[database]\nhost = \"db.internal\"\n{N} = {V}\n",
		refs: []string{`"${{U}}"`}},
	{id: "yaml-block", styles: []mxStyle{mxSnake, mxCamel, mxKebab}, quote: mxBare, tmpl: "database:\n  host: db.internal\n  {N}: {V}\n  port: 5432\n",
		refs: []string{`${{U}}`, `"{{ .Values.{c} }}"`, `<%= ENV['{U}'] %>`, `!vault |`, `~`, `null`, `""`, `true`, `false`}},
	{id: "yaml-quoted", styles: []mxStyle{mxSnake, mxCamel}, quote: mxDouble, tmpl: "database:\n  host: db.internal\n  {N}: {V}\n"},
	{id: "yaml-flow", styles: []mxStyle{mxSnake}, quote: mxDouble, tmpl: "database: {host: db.internal, {N}: {V}, port: 5432}\n",
		refs: []string{`"${{U}}"`}},
	{id: "json", styles: []mxStyle{mxSnake, mxCamel, mxKebab}, quote: mxDouble, tmpl: "{\n  \"host\": \"db.internal\",\n  \"{N}\": {V}\n}\n",
		refs: []string{`null`, `""`, `"${{U}}"`, `"{{ {s} }}"`, `true`, `false`, `"${{U}:-}"`}},
	{id: "xml-element", styles: []mxStyle{mxCamel, mxSnake}, quote: mxXMLText, tmpl: "<config>\n  <host>db.internal</host>\n  <{N}>{V}</{N}>\n</config>\n"},
	{id: "xml-add-key", styles: []mxStyle{mxPascal, mxCamel}, quote: mxXML, tmpl: "<appSettings>\n  <add key=\"{N}\" value={V} />\n</appSettings>\n",
		refs: []string{`"${{U}}"`, `""`}},
	{id: "xml-attribute", styles: []mxStyle{mxCamel}, quote: mxXML, tmpl: "<datasource url=\"jdbc:postgresql://db/app\" user=\"app\" {N}={V} />\n",
		refs: []string{`"${{U}}"`}},
	{id: "properties-eq", styles: []mxStyle{mxCamel, mxSnake}, quote: mxBare, tmpl: "spring.datasource.url=jdbc:postgresql://db/app\nspring.datasource.{N}={V}\n",
		refs: []string{`${DB_{U}}`}},
	{id: "properties-colon", styles: []mxStyle{mxCamel}, quote: mxBare, tmpl: "app.host: db.internal\napp.{N}: {V}\n"},
	{id: "properties-space", styles: []mxStyle{mxCamel}, quote: mxBare, tmpl: "app.host db.internal\napp.{N} {V}\n"},
	{id: "hcl", styles: []mxStyle{mxSnake}, quote: mxDouble, tmpl: "resource \"aws_db_instance\" \"main\" {\n  username = \"admin\"\n  {N} = {V}\n}\n",
		refs: []string{`var.{s}`, `random_password.db.result`, `data.aws_secretsmanager_secret_version.db.secret_string`}},
	{id: "dockerfile-env", styles: []mxStyle{mxUpper}, quote: mxBare, tmpl: "FROM node:20\nENV {N}={V}\nRUN npm ci\n",
		refs: []string{`${{U}}`, `$BUILD_{U}`}},
	{id: "dockerfile-env-space", styles: []mxStyle{mxUpper}, quote: mxBare, tmpl: "FROM node:20\nENV {N} {V}\nRUN npm ci\n"},
	{id: "dockerfile-arg", styles: []mxStyle{mxUpper}, quote: mxBare, tmpl: "FROM node:20\nARG {N}={V}\nRUN npm ci\n"},
	{id: "compose-list", styles: []mxStyle{mxUpper}, quote: mxBare, tmpl: "services:\n  db:\n    image: postgres:16\n    environment:\n      - POSTGRES_DB=app\n      - {N}={V}\n",
		refs: []string{`${{U}}`, `${{U}:-}`}},
	{id: "compose-map", styles: []mxStyle{mxUpper}, quote: mxBare, tmpl: "services:\n  db:\n    image: postgres:16\n    environment:\n      POSTGRES_DB: app\n      {N}: {V}\n",
		refs: []string{`${{U}}`}},
	{id: "k8s-stringdata", styles: []mxStyle{mxUpper, mxSnake}, quote: mxBare, tmpl: "apiVersion: v1\nkind: Secret\nmetadata:\n  name: app\nstringData:\n  {N}: {V}\n"},
	{id: "gha-env", styles: []mxStyle{mxUpper}, quote: mxBare, tmpl: "jobs:\n  deploy:\n    runs-on: ubuntu-latest\n    env:\n      {N}: {V}\n    steps:\n      - run: ./deploy.sh\n",
		refs: []string{`${{ secrets.{U} }}`, `${{ vars.{U} }}`}},
	// SQL
	{id: "sql-identified-by", quote: mxDoubled, names: mxNoName, tmpl: "CREATE USER 'app'@'%' IDENTIFIED BY {V};\nGRANT ALL ON app.* TO 'app'@'%';\n"},
	{id: "sql-with-password", quote: mxDoubled, names: mxNoName, tmpl: "CREATE ROLE app WITH LOGIN PASSWORD {V};\n"},
	{id: "sql-alter-user", quote: mxDoubled, names: mxNoName, tmpl: "ALTER USER app WITH PASSWORD {V};\n"},
	{id: "sql-mssql-login", quote: mxDoubled, names: mxNoName, tmpl: "CREATE LOGIN app WITH PASSWORD = {V}, CHECK_POLICY = OFF;\n"},
	{id: "sql-set-password", quote: mxDoubled, names: mxNoName, tmpl: "SET PASSWORD FOR 'app'@'localhost' = {V};\n"},
	{id: "sql-sp-addlogin", quote: mxDoubled, names: mxNoName, tmpl: "EXEC sp_addlogin 'app', {V};\n"},
	// Credential files
	{id: "netrc", quote: mxBare, names: mxNoName, tmpl: "machine api.internal\n  login deploy\n  password {V}\n"},
	{id: "pgpass", quote: mxURL, names: mxNoName, tmpl: "db.internal:5432:app:deploy:{V}\n"},
	{id: "git-credentials", quote: mxURL, names: mxNoName, tmpl: "https://deploy:{V}@git.internal\n"},
	{id: "pypirc", quote: mxBare, names: mxNoName, tmpl: "[distutils]\nindex-servers = internal\n\n[internal]\nrepository = https://pypi.internal/\nusername = deploy\npassword = {V}\n"},
	{id: "npmrc", quote: mxBare, names: mxNoName, tmpl: "registry=https://npm.internal/\n//npm.internal/:_authToken={V}\n"},
	// URLs and DSNs
	{id: "jdbc-url", quote: mxURL, names: mxOwnPassword, styles: []mxStyle{mxSnake}, tmpl: "jdbc:postgresql://db.internal:5432/app?user=app&{N}={V}&ssl=true\n"},
	{id: "odbc-dsn", styles: []mxStyle{mxPascal}, quote: mxURL, names: mxNames("!pwd"), tmpl: "Driver={ODBC Driver 18 for SQL Server};Server=tcp:db,1433;Uid=app;{N}={V};\n"},
	{id: "mongo-url", quote: mxURL, names: mxNoName, tmpl: "MONGO_URI: mongodb://app:{V}@db.internal:27017/app?authSource=admin\n"},
	{id: "redis-url", quote: mxURL, names: mxNoName, tmpl: "redis.from_url(\"redis://:{V}@cache.internal:6379/0\")\n"},
	{id: "libpq-dsn", quote: mxURL, names: mxOwnPassword, styles: []mxStyle{mxSnake}, tmpl: "conn = psycopg2.connect(\"host=db.internal port=5432 user=app {N}={V} dbname=app\")\n"},
	// Command lines
	{id: "cli-flag-eq", styles: []mxStyle{mxKebab}, quote: mxBare, tmpl: "$ app serve --{N}={V} --port 8080\n",
		refs: []string{`"$APP_{U}"`, `$(cat ~/.app/{s})`}},
	{id: "cli-flag-space", styles: []mxStyle{mxKebab}, quote: mxBare, tmpl: "$ app serve --{N} {V} --port 8080\n",
		refs: []string{`"$APP_{U}"`}},
	{id: "cli-flag-quoted", styles: []mxStyle{mxKebab}, quote: mxDouble, tmpl: "$ app deploy --{N} {V} --region eu-west-1\n"},
	{id: "cli-docker-login", quote: mxBare, names: mxNoName, tmpl: "$ docker login registry.internal -u deploy -p {V}\n"},
	{id: "cli-az-login", quote: mxBare, names: mxNoName, tmpl: "$ az login --service-principal -u http://app -p {V} --tenant corp.onmicrosoft.com\n"},
	{id: "cli-sshpass", quote: mxBare, names: mxNoName, tmpl: "$ sshpass -p {V} ssh deploy@10.0.0.5\n"},
	{id: "cli-redis-a", quote: mxBare, names: mxNoName, tmpl: "$ redis-cli -h cache.internal -a {V} PING\n"},
	{id: "cli-mysql-p", quote: mxBare, names: mxNoName, tmpl: "$ mysql -h db.internal -u root -p{V} app < dump.sql\n"},
	{id: "cli-sqlcmd-P", quote: mxBare, names: mxNoName, tmpl: "sqlcmd -S db.internal -U sa -P {V} -Q \"SELECT 1\"\n"},
	{id: "cli-psexec-p", quote: mxBare, names: mxNoName, tmpl: "psexec \\\\srv01 -u CORP\\admin -p {V} cmd.exe /c ipconfig\n"},
	{id: "cli-curl-u", quote: mxURL, names: mxNoName, tmpl: "curl -u admin:{V} https://api.internal/v1/me\n"},
	{id: "cli-user-pass", quote: mxBare, names: mxNoName, tmpl: "app login --user=admin --pass={V}\n"},
	{id: "htpasswd-line", quote: mxURL, names: mxNoName, tmpl: "$ cat .htpasswd\nadmin:{V}\n"},
	{id: "log-line", styles: []mxStyle{mxSnake}, quote: mxBare, tmpl: "2024-05-01T10:00:00Z INFO connecting host=db.internal {N}={V} user=app\n"},
	// Setting a secret through an API or a tool
	{id: "py-config-index", styles: []mxStyle{mxSnake}, quote: mxSingle, tmpl: "config['{N}'] = {V}\n",
		refs: []string{`os.environ['{U}']`}},
	{id: "go-setenv", styles: []mxStyle{mxUpper}, quote: mxDouble, tmpl: "os.Setenv(\"{N}\", {V})\n",
		refs: []string{`cfg.{P}`}},
	{id: "java-setproperty", styles: []mxStyle{mxSnake, mxCamel}, quote: mxDouble, tmpl: "props.setProperty(\"db.{N}\", {V});\n",
		refs: []string{`System.getenv("{U}")`}},
	{id: "rb-env-set", styles: []mxStyle{mxUpper}, quote: mxSingle, tmpl: "ENV['{N}'] = {V}\n"},
	{id: "js-headers", styles: []mxStyle{mxKebab}, quote: mxSingle, tmpl: "fetch(url, { headers: { 'content-type': 'application/json', '{N}': {V} } });\n",
		refs: []string{`process.env.{U}`}},
	{id: "docker-run-e", styles: []mxStyle{mxUpper}, quote: mxBare, tmpl: "docker run -d -e APP_ENV=prod -e {N}={V} app:latest\n"},
	{id: "kubectl-from-literal", styles: []mxStyle{mxSnake}, quote: mxBare, tmpl: "kubectl create secret generic app --from-literal={N}={V}\n"},
	{id: "helm-set", styles: []mxStyle{mxCamel}, quote: mxBare, tmpl: "helm upgrade --install app ./chart --set db.{N}={V} --set replicas=2\n"},
	{id: "terraform-var", styles: []mxStyle{mxSnake}, quote: mxBare, tmpl: "terraform apply -var 'region=eu-west-1' -var '{N}={V}'\n"},
	{id: "http-header", styles: []mxStyle{mxKebab}, quote: mxBare, tmpl: "GET /v1/me HTTP/1.1\nHost: api.internal\nX-{N}: {V}\n"},
	// Spacing and prose
	{id: "colon-spaced", styles: []mxStyle{mxSnake}, quote: mxBare, tmpl: "Connection settings:\n{N} : {V}\nhost : db.internal\n"},
	{id: "colon-glued", styles: []mxStyle{mxSnake}, quote: mxBare, tmpl: "host:db.internal\n{N}:{V}\n"},
	{id: "equals-spaced-after", styles: []mxStyle{mxUpper}, quote: mxBare, tmpl: "HOST= db.internal\n{N}= {V}\n"},
	{id: "yaml-tab", styles: []mxStyle{mxSnake}, quote: mxBare, tmpl: "db:\n  host:\tdb.internal\n  {N}:\t{V}\n"},
	{id: "markdown-table", styles: []mxStyle{mxSnake}, quote: mxBare, tmpl: "| setting | value |\n| --- | --- |\n| host | db.internal |\n| {N} | {V} |\n"},
	{id: "prose-is", styles: []mxStyle{mxSnake}, quote: mxBare, tmpl: "For staging the {N} is {V} until we rotate it.\n"},
	// Diff hunks
	{id: "diff-yaml", styles: []mxStyle{mxSnake}, quote: mxBare, tmpl: "@@ -3,3 +3,3 @@ database:\n   host: db.internal\n-  {N}: \"\"\n+  {N}: {V}\n"},
	{id: "diff-env", styles: []mxStyle{mxUpper}, quote: mxBare, tmpl: "--- a/.env\n+++ b/.env\n@@ -1,2 +1,2 @@\n APP_ENV=production\n+{N}={V}\n"},
	{id: "diff-json", styles: []mxStyle{mxCamel}, quote: mxDouble, tmpl: "@@ -1,4 +1,4 @@\n {\n   \"host\": \"db.internal\",\n+  \"{N}\": {V}\n }\n"},
	{id: "diff-python", styles: []mxStyle{mxUpper}, quote: mxDouble, tmpl: "@@ -10,1 +10,1 @@\n-{N} = os.environ[\"{N}\"]\n+{N} = {V}\n"},
}

// mxValue is a value of a class; generated values differ from row to row.
type mxValue struct {
	class, v string
}

const (
	mxAlnum  = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
	mxPunct  = "!@#$%^&*()-_=+[]{};:,.<>?/|~"
	mxHex    = "0123456789abcdef"
	mxBase64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
)

func mxRandom(r *rand.Rand, alphabet string, n int) string {
	for {
		b := make([]byte, n)
		for i := range b {
			b[i] = alphabet[r.IntN(len(alphabet))]
		}
		s := string(b)
		if alphabet != mxAlnum && alphabet != mxBase64 || hasDigitAndLetter(s) && strings.ToLower(s) != s && strings.ToUpper(s) != s {
			return s
		}
	}
}

// mxValues returns the values a row under name writes: generated ones for every name, and
// the weak ones people choose and passphrases for words for a password.
func mxValues(seed string, n mxName) []mxValue {
	h := fnv.New64a()
	h.Write([]byte(seed))
	r := rand.New(rand.NewPCG(h.Sum64(), 17))
	punct := []byte(mxRandom(r, mxAlnum, 14))
	for i := 0; i < 4; i++ {
		k := r.IntN(len(punct)-1) + 1
		punct = slices.Insert(punct, k, mxPunct[r.IntN(len(mxPunct))])
	}
	vs := []mxValue{
		{"alnum", mxRandom(r, mxAlnum, 20)},
		{"punct", string(punct)},
		{"hex32", mxRandom(r, mxHex, 32)},
		{"hex40", mxRandom(r, mxHex, 40)},
		{"hex64", mxRandom(r, mxHex, 64)},
		{"base64", mxRandom(r, mxBase64, 30) + "+/" + mxRandom(r, mxAlnum, 6) + "="},
		{"quote", mxRandom(r, mxAlnum, 6) + `"` + mxRandom(r, mxAlnum, 6) + `'` + mxRandom(r, mxAlnum, 4)},
	}
	if n.pw {
		vs = append(vs, mxValue{"weak", "Summer2024!"}, mxValue{"weak", "qwerty456"}, mxValue{"weak", "hunter2"},
			mxValue{"weak", "P@ssw0rd"}, mxValue{"weak", "letmein123"}, mxValue{"phrase", "correct horse battery staple"})
	}
	return vs
}

// mxStandIns are values that stand in for a secret, written as literals.
var mxStandIns = []string{"changeme", "<your-password>", "YOUR_API_KEY_HERE", "xxx", "***", "example", "dummy", "test", "REPLACE_ME"}

// mxDescribed are names that describe a secret (the name's parts and a suffix) with the
// values they hold.
var mxDescribed = []struct{ suffix, value string }{
	{"file", "config/app-credentials.json"}, {"url", "https://auth.internal/oauth/token"},
	{"length", "32"}, {"ttl", "3600"}, {"type", "bearer"}, {"id", "4f9c2b1a"},
}

// mxLookAlikes are names no secret has, with the generated-looking values they hold:
// digests, ids, public keys, the model and token settings of AI tools.
var mxLookAlikes = []struct{ name, value string }{
	{"cache_key", "3f9c2b1a4d5e6f708192a3b4c5d6e7f8"}, {"commit_sha", "9fceb02d0ae598e95dc970b74767f19372d61af8"},
	{"request_id", "req_011CQqwWfuVx1MsvcFqrhbWz"}, {"message_id", "msg_01XFDUDYJgAACzvnptvVoYEL"},
	{"idempotency_key", "9b2f6c1e-4d3a-4b8e-a1f2-3c4d5e6f7a8b"}, {"public_key", "ssh-ed25519"},
	{"model", "claude-3-5-sonnet-20241022"}, {"max_tokens", "4096"}, {"token_type", "Bearer"},
	{"primary_key", "user_id"}, {"sort_key", "created_at"}, {"secret_name", "prod/db/app"},
	{"integrity", "sha512-9Tq4bKxQ2mZ8pLw3nR7vY1cF6hJ0dG5sA4eB2kU9iO8tX3zW7yV1uN6mQ0rP5lE=="},
	{"tokenizer", "cl100k_base"}, {"key_id", "4f9c2b1a"}, {"node_id", "MDQ6VXNlcjU4MzIzMQ=="},
}

// write renders v as a literal of the quoting q, or reports that q cannot hold it.
func (q mxQuote) write(v string) (string, bool) {
	switch q {
	case mxRawDQ:
		if strings.ContainsAny(v, "\"\\{}: ") {
			return "", false
		}
		return v, true
	case mxDouble, mxObjC:
		e := strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(v)
		if q == mxObjC {
			return `@"` + e + `"`, true
		}
		return `"` + e + `"`, true
	case mxSingle:
		return "'" + strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(v) + "'", true
	case mxDoubled:
		return "'" + strings.ReplaceAll(v, "'", "''") + "'", true
	case mxXML:
		return `"` + strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;").Replace(v) + `"`, true
	case mxXMLText:
		return strings.NewReplacer("&", "&amp;", "<", "&lt;").Replace(v), true
	case mxBare:
		if strings.ContainsAny(v, " \t\"'`#;,$&|<>(){}[]\\") || v[0] == '!' || v[0] == '*' || v[0] == '@' || v[0] == '%' {
			return "", false
		}
		return v, true
	case mxURL:
		for i := 0; i < len(v); i++ {
			if !isWordByte(v[i]) && !strings.ContainsRune(".-~!*", rune(v[i])) {
				return "", false
			}
		}
		return v, true
	}
	return "", false
}

type mxRow struct {
	syntax, name, style, class string
	text, secret               string // secret: the value as written, "" for a negative
}

func (r mxRow) key() string { return r.syntax + "/" + r.name + "/" + r.class }

func (sx mxSyntax) expand(tmpl string, n mxName, st mxStyle) string {
	return strings.NewReplacer("{N}", n.spell(st), "{U}", n.spell(mxUpper), "{s}", n.spell(mxSnake), "{c}", n.spell(mxCamel),
		"{P}", n.spell(mxPascal)).Replace(tmpl)
}

// matrixRows generates every row: positives and negatives of each syntax, name and style.
func matrixRows() []mxRow {
	var rows []mxRow
	for _, sx := range matrixSyntaxes {
		names, styles := matrixNames, sx.styles
		if sx.names != nil {
			names = sx.names
		}
		if len(styles) == 0 {
			styles = []mxStyle{mxSnake}
		}
		for _, n := range names {
			for si, st := range styles {
				tmpl := sx.expand(sx.tmpl, n, st)
				id := n.spell(mxSnake)
				if len(styles) > 1 {
					id += "(" + st.String() + ")"
				}
				for _, v := range mxValues(sx.id+"/"+id, n) {
					w, ok := sx.quote.write(v.v)
					if !ok {
						continue
					}
					secret := w
					if sx.quote != mxBare && sx.quote != mxURL && sx.quote != mxXMLText && sx.quote != mxRawDQ {
						secret = w[strings.IndexAny(w, `"'`)+1 : len(w)-1]
					}
					text := strings.ReplaceAll(tmpl, "{V}", w)
					rows = append(rows, mxRow{sx.id, id, st.String(), v.class, text, secret})
					if v.class == "alnum" || v.class == "punct" || v.class == "weak" && v.v == "Summer2024!" {
						// The same file written through a tool call: a JSON string.
						j, _ := json.Marshal(map[string]string{"file_path": "notes.txt", "content": text})
						js, _ := json.Marshal(secret)
						rows = append(rows, mxRow{sx.id, id, st.String(), "json-" + v.class, string(j), string(js[1 : len(js)-1])})
					}
				}
				if si > 0 {
					continue // negatives in the syntax's first style
				}
				for _, s := range mxStandIns {
					if w, ok := sx.quote.write(s); ok {
						rows = append(rows, mxRow{sx.id, id, st.String(), "stand-in:" + s, strings.ReplaceAll(tmpl, "{V}", w), ""})
					}
				}
				if sx.names == nil && sx.id != "k8s-stringdata" { // (a Secret's every value is one)
					// Names about a secret, not of one: its file, its endpoint, its lifetime.
					for _, d := range mxDescribed {
						dn := mxName{parts: append(slices.Clone(n.parts), d.suffix)}
						if w, ok := sx.quote.write(d.value); ok {
							rows = append(rows, mxRow{sx.id, id, st.String(), "described:" + d.suffix, strings.ReplaceAll(sx.expand(sx.tmpl, dn, st), "{V}", w), ""})
						}
					}
				}
				if sx.names == nil && sx.id != "k8s-stringdata" && n.parts[0] == "password" && len(n.parts) == 1 {
					// Names that are no secret's, with values that look generated.
					for _, h := range mxLookAlikes {
						hn := mxName{parts: strings.Split(h.name, "_")}
						if w, ok := sx.quote.write(h.value); ok {
							rows = append(rows, mxRow{sx.id, hn.spell(mxSnake), st.String(), "look-alike:" + h.name, strings.ReplaceAll(sx.expand(sx.tmpl, hn, st), "{V}", w), ""})
						}
					}
				}
				for _, ref := range sx.refs {
					rows = append(rows, mxRow{sx.id, id, st.String(), "reference:" + ref, strings.ReplaceAll(tmpl, "{V}", sx.expand(ref, n, st)), ""})
				}
			}
		}
	}
	for i, text := range matrixHarmless {
		rows = append(rows, mxRow{"harmless", fmt.Sprint(i), "", "identifier", text, ""})
	}
	return rows
}

// matrixHarmless are identifiers, types and prose about credentials: nothing to redact.
var matrixHarmless = []string{
	"password_reset_path = \"/users/password/reset\"\n",
	"token_count = 4096\nmax_tokens = 1024\n",
	"except KeyError:\n    raise\n",
	"The password is stored in Vault and rotated weekly.\n",
	"interface LoginForm {\n  password: string;\n  apiKey?: string;\n}\n",
	"const schema = z.object({ password: z.string().min(8), token: z.string() });\n",
	"private String password;\npublic void setPassword(String password) { this.password = password; }\n",
	"def login(username: str, password: str) -> Token:\n    return auth.login(username=username, password=password)\n",
	"type Config struct {\n\tPassword string `json:\"password\"`\n\tAPIKey   string `yaml:\"api_key\"`\n}\n",
	"if (!password) throw new Error('password is required');\n",
	"env:\n  - name: DB_PASSWORD\n    valueFrom:\n      secretKeyRef:\n        name: db\n        key: password\n",
	"password = getpass.getpass(\"Password: \")\n",
	"String apiKey = System.getenv(\"API_KEY\");\n",
	"$password = Read-Host -AsSecureString\n",
	"API_KEY=\nSECRET_KEY=\n",
	"  password: ${DB_PASSWORD}\n  token: \"{{ .Values.token }}\"\n",
	"curl -H \"Authorization: Bearer $TOKEN\" https://api.internal/v1/me\n",
	"mysql -h db -u root -p app\n",
	"psql \"host=db user=app password=$PGPASSWORD dbname=app\"\n",
	"<input type=\"password\" name=\"password\" placeholder=\"Password\" />\n",
	"SELECT id, password_hash FROM users WHERE email = $1;\n",
	"docker login -u admin --password-stdin < ~/.docker/pass\n",
	"refresh_token_ttl: 3600\nsession_secret_length: 64\n",
	"ConvertTo-SecureString $plain -AsPlainText -Force\n",
	"CREATE USER app WITH PASSWORD :'app_password';\n",
	"token = token.strip()\npassword = password.encode()\n",
	"fn verify(password: &str, hash: &str) -> bool { argon2::verify(password, hash) }\n",
}

// matrixKnownFailures are the rows allowed to fail, as syntax/name/class patterns
// (path.Match), each with the reason it is not fixed.
var matrixKnownFailures = map[string]string{
	"cli-flag-space/authorization/*alnum": "--authorization takes a scheme or a mode as often as a credential (--auth basic); " +
		"no flag rule reads it",
	"xml-attribute/auth/*alnum": "a 20-character value with a single digit under auth, an attribute that only suggests a " +
		"credential: not shaped enough like a generated one",
	"java-setproperty/auth(snake)/*alnum": "the same value under db.auth: one digit in twenty letters reads as a word",
	"xml-element/authorization(camel)/*punct": "an element's text holding an entity (&lt;) under authorization: the value " +
		"check reads the entity as symbols and words",
	"xml-element/auth(camel)/json-punct": "the same, an entity under auth inside a JSON string",
	"xml-add-key/auth*/json-punct":       "an attribute value holding an entity under auth or authorization inside a JSON string",
	"harmless/24/identifier":             "psql's :'variable' after PASSWORD is read as a literal",
	"xml-*/tokenizer/look-alike:tokenizer": "an XML name holding token takes any value (tokenizer: cl100k_base): the " +
		"element rule keeps its names' reach",
	"java-setter/ftp_pass/*alnum": "a generated value that happens to hold XXX (4kjMpOmINfHXXXxN4eSf) reads as a stand-in",
}

var matrixDump = flag.String("matrix.dump", "", "write every failing row of the keyword matrix to this file")

// mxTally counts a group's rows and failures, positives and negatives apart.
type mxTally struct{ pos, posBad, neg, negBad int }

func (t *mxTally) add(positive, bad bool) {
	switch {
	case positive && bad:
		t.pos, t.posBad = t.pos+1, t.posBad+1
	case positive:
		t.pos++
	case bad:
		t.neg, t.negBad = t.neg+1, t.negBad+1
	default:
		t.neg++
	}
}

func TestKeywordMatrix(t *testing.T) {
	t.Parallel()
	san := testSanitizer(t)
	rows := matrixRows()
	if testing.Short() {
		// -short: every fourth row (known failures still have to fail).
		var some []mxRow
		for i, r := range rows {
			if i%4 == 0 || r.syntax == "harmless" {
				some = append(some, r)
			}
		}
		rows = some
	}
	bySyntax, byName, byClass := map[string]*mxTally{}, map[string]*mxTally{}, map[string]*mxTally{}
	get := func(m map[string]*mxTally, k string) *mxTally {
		if m[k] == nil {
			m[k] = &mxTally{}
		}
		return m[k]
	}
	used := map[string]bool{}
	var unexpected []string
	known := 0
	for _, r := range rows {
		out := san.NewSession(SessionHints{}).SanitizeText(r.text)
		var bad bool
		if r.secret != "" {
			bad = secretLeaks(r.text, out, r.secret, []string{r.secret})
		} else {
			bad = strings.Count(out, "[redacted") > strings.Count(r.text, "[redacted")
		}
		for _, tl := range []*mxTally{get(bySyntax, r.syntax), get(byName, strings.SplitN(r.name, "(", 2)[0]), get(byClass, strings.SplitN(r.class, ":", 2)[0])} {
			tl.add(r.secret != "", bad)
		}
		if !bad {
			continue
		}
		listed := false
		for p := range matrixKnownFailures {
			if ok, _ := path.Match(p, r.key()); ok {
				used[p], listed = true, true
			}
		}
		if listed {
			known++
			continue
		}
		unexpected = append(unexpected, fmt.Sprintf("%s (%s): %q\n  → %q", r.key(), r.style, r.text, out))
	}
	pos, neg := 0, 0
	for _, ts := range bySyntax {
		pos += ts.pos
		neg += ts.neg
	}
	t.Logf("keyword matrix: %d syntaxes × %d names, %d positive rows and %d negative rows; %d known failures",
		len(matrixSyntaxes), len(matrixNames), pos, neg, known)
	if testing.Verbose() {
		var b strings.Builder
		table := func(title string, m map[string]*mxTally) {
			fmt.Fprintf(&b, "\n%-24s %18s %18s\n", title, "positives missed", "negatives marked")
			for _, k := range slices.Sorted(func(yield func(string) bool) {
				for k := range m {
					if !yield(k) {
						return
					}
				}
			}) {
				ts := m[k]
				if ts.posBad+ts.negBad == 0 {
					continue
				}
				fmt.Fprintf(&b, "%-24s %10d/%-7d %10d/%-7d\n", k, ts.posBad, ts.pos, ts.negBad, ts.neg)
			}
		}
		table("syntax", bySyntax)
		table("name", byName)
		table("value", byClass)
		t.Log(b.String())
	}
	for p, reason := range matrixKnownFailures {
		if !used[p] && !testing.Short() {
			t.Errorf("known failure %s (%s) no longer fails: take it off the list", p, reason)
		}
	}
	if *matrixDump != "" {
		_ = os.WriteFile(*matrixDump, []byte(strings.Join(unexpected, "\n")+"\n"), 0o644)
	}
	if len(unexpected) > 0 {
		show := unexpected
		if len(show) > 40 {
			show = show[:40]
		}
		t.Errorf("%d rows fail that are not known failures; the first:\n%s", len(unexpected), strings.Join(show, "\n"))
	}
}
