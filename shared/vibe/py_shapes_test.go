package vibe

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestPythonDocstringFields(t *testing.T) {
	t.Parallel()
	san, err := NewSanitizer()
	require.NoError(t, err)
	requireKept(t, san,
		"    :type credential: ~azure.core.credentials.TokenCredential\n",
		"    :vartype credentials: ~azure.mgmt.containerregistry.models.Credentials\n",
		"        :paramtype credentials: ~azure.mgmt.containerregistry.models.Credentials\n",
		"    :type password: ~azure.synapse.artifacts.models.SecretBase\n",
		"    :ivar credentials: Required. [Required] Account credentials.\n",
		"    :param password: the password to log in with\n",
	)
	requireMasked(t, san, []maskedRow{
		{"    :param password: s3cr3t-Pa55\n", "s3cr3t-Pa55"},
		{"password = \"s3cr3t-Pa55\"\n", "s3cr3t-Pa55"},
		{"api_key='AKIAIOSFODNN7EXAMPLQ'\n", "AKIAIOSFODNN7EXAMPLQ"},
		{"    :type: password: Xk9#mQ2v!pL\n", "Xk9#mQ2v!pL"},
	})
}

func TestPythonSetterLastArgument(t *testing.T) {
	t.Parallel()
	san, err := NewSanitizer()
	require.NoError(t, err)
	requireKept(t, san,
		"keyring.set_password(service, username, password)\n",
		"keyring.set_password('svc', user, getpass.getpass())\n",
	)
	requireMasked(t, san, []maskedRow{
		{"keyring.set_password('svc', 'deploy', 's3cr3tpw!')\n", "s3cr3tpw!"},
		{"keyring.set_password(\"svc\", user, \"Xk9#mQ2v!pL\")\n", "Xk9#mQ2v!pL"},
		{"client.setPassword(\"Xk9#mQ2v!pL\")\n", "Xk9#mQ2v!pL"},
	})
}
