package vibe

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// The kept rows are written after the shapes of shell scripts that call DNS and hosting APIs
// (acmesh-official/acme.sh's dnsapi, deploy and notify hooks, read as a probe and not quoted:
// a script builds a request from its variables, names ACME challenges in its usage comments,
// and documents its settings with stand-ins). The rows of secrets are made up.

func TestShellScriptShapes(t *testing.T) {
	t.Parallel()
	san, err := NewSanitizer()
	require.NoError(t, err)
	t.Run("kept", func(t *testing.T) {
		requireKept(t, san,
			"  openssl pkcs12 -export -out \"$out\" -inkey \"$key\" -password \"pass:$pfxPassword\" -name \"$pfxName\"",
			"  resp=$(_post \"act=login&user=$enc_user&password=$enc_password\" \"$baseUrl/api/login.cgi\")",
			"      _H1=\"Cookie: sid=$SESSION_ID\"",
			"  CredentialScope=\"$RequestDate/$Region/$Service/aws4_request\"",
			"## e.g. \"_acme-challenge.www.example.com\" \"XKrxpRBosdq0HG9i01zxXp5CPBs\"",
			"    # https://dns.example.net/txt-create?host=_acme-challenge.example.com&rdata=depE1VF_xshMm1IVY1Y56Kk9Zb_7jA2VFkP65WuNgu8W",
			"  if token=\"$(_get_access_token \"$Identity_ServiceApi/tokens\" \"$Api_Username\" \"$Api_Password\")\"; then",
			" Api_Url: the API server's URL, e.g. \"https://remoteUser:remotePassword@panel.example.com:8443\"",
			"  export _H1=\"Authorization: sso-key $GD_Key:$GD_Secret\"",
			"  export _H2=\"X-Api-Signature: \\$1\\$$_sig_hex\"",
			"  secretKey=${Cloud_SecretKey:-'cloud-provider-secret-key'}",
			"  \\\"global_key\\\":\\\"${Api_Token_Global_Key:-false}\\\"",
			"  export _H1=\"Cookie: PHPSESSID=$sessid\"",
			"  baseParamAuth=\"$baseParamAuth,\\\"session_lifetime\\\":600\"",
			"      _data_auth=\"{\\\"auth\\\":{\\\"identity\\\":{\\\"methods\\\":[\\\"password\\\"],\\\"password\\\":{\\\"user\\\":{\\\"name\\\":\\\"${Api_User}\\\"}}}}}\"",
		)
	})
	t.Run("masked", func(t *testing.T) {
		requireMasked(t, san, []maskedRow{
			// a literal beside the expansions, a cookie of a literal, a default that is one,
			// a crypt hash whose fields read as positional parameters
			{"  resp=$(_post \"act=login&user=$enc_user&password=Zx8kq2pLm9Qw4rT7\")", "Zx8kq2pLm9Qw4rT7"},
			{"      _H1=\"Cookie: sid=Zx8kq2pLm9Qw4rT7\"", "Zx8kq2pLm9Qw4rT7"},
			{"  export _H1=\"Authorization: sso-key $GD_Key:Zx8kq2pLm9Qw4rT7\"", "Zx8kq2pLm9Qw4rT7"},
			{"  secretKey=${Cloud_SecretKey:-'Zx8kq2pLm9Qw4rT7'}", "Zx8kq2pLm9Qw4rT7"},
			{"password = $9t$78$mmizsyqu", "$9t$78$mmizsyqu"},
			{"  API_PASSWORD=\"$g8Heax1fEG\"", "g8Heax1fEG"},
			{"  CredentialScope=\"$RequestDate/Zx8kq2pLm9Qw4rT7\"", "Zx8kq2pLm9Qw4rT7"},
			{"https://remoteUser:Zx8kq2pLm9Qw@panel.example.com", "Zx8kq2pLm9Qw"},
		})
	})
}
