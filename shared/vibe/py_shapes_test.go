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

func TestPythonCodeValues(t *testing.T) {
	t.Parallel()
	san, err := NewSanitizer()
	require.NoError(t, err)
	requireKept(t, san,
		// A quoted forward reference in a def's signature is a parameter's type.
		"    def __init__(self, credential: \"TokenCredential\", subscription_id: str, **kwargs: Any) -> None:\n",
		"    def __init__(\n        self,\n        credential: \"AsyncTokenCredential\",\n        **kwargs: Any\n    ) -> None:\n",
		"        regenerate_credential_parameters: \"_models.RegenerateCredentialParameters\",\n        **kwargs: Any\n    ) -> \"_models.RegistryListCredentialsResult\":\n",
		"    def generate(cls, signing_key: 'SSHKey', key: 'SSHKey', subject: str,\n",
		// A serializer's attribute map spells the member again as its wire name.
		"        \"log_analytics_workspace_resource_id\": {\"key\": \"logAnalyticsWorkspaceResourceId\", \"type\": \"str\"},\n",
		"        'count_ipv6': {'key': 'properties.countIPv6', 'type': 'int'},\n",
		// How a credential travels or what kind it is: a word.
		"    access_token_method = \"GET\"\n",
		"    ACCESS_TOKEN_METHOD = 'POST'\n",
		"    TOKEN_TYPE = 'Bearer'\n",
		"        if auth_type == 'token':\n",
		"    def __init__(self, token, token_placement='header', client=None):\n",
		// What is done to a credential: an option's choice.
		"        if self.update_password == 'always' and self.password is not None:\n",
		"        if self.want.update_password == 'on_create':\n",
		// A count, a size or a time.
		"        secret_shares=5,\n",
		"        token_num_uses=0,\n",
		"PASSWORD_RESET_TIMEOUT = 259200\n",
		// A value read from where it is kept, an expression of names, a type unquoted.
		"        c = Client(\n            vcenter_password=module.params[\"vcenter_password\"],\n            token=data[\"access_token\"],\n        )\n",
		"        self.vault_secrets = vault_secrets or []\n        keys_to_load = keylist if keylist else []\n",
		"    def decrypt(data: bytes,\n                  passphrase: BytesOrStr) -> Tuple[bytes, bytes, bytes]:\n",
		"    def connect(host, password_auth: _AuthArg, host_key_alias: Optional[str] = None):\n",
		// A prompt shown about a credential.
		"                password_prompt = 'Enter PIN for '\n",
		// A Google-style docstring's argument.
		"        \"\"\"Get a token.\n\n        Args:\n            private_token: The user private token\n            token: The runner's authentication token\n        \"\"\"\n",
	)
	requireMasked(t, san, []maskedRow{
		// The same syntax outside a def's signature is an object's member.
		{"    password: \"SuperSecretPassword\",\n", "SuperSecretPassword"},
		{"    creds = {\n        credential: \"TokenCredential\",\n    }\n", "TokenCredential"},
		{"    def login(password: str = \"Hunter2!xyz\"):\n", "Hunter2!xyz"},
		{"    def login(password: \"Hunter2xyz\"):\n", "Hunter2xyz"},
		// A key in an attribute map that does not spell the member.
		{"        \"resource_id\": {\"key\": \"Xk9mQ2vpL77rTq\", \"type\": \"str\"},\n", "Xk9mQ2vpL77rTq"},
		// A password compared under its own name, even a word.
		{"        if password == 'Hunter2!xyz':\n", "Hunter2!xyz"},
		{"        if user_password == 'dragon':\n", "dragon"},
		{"        if self.update_password == 'Hunter2!xyz':\n", "Hunter2!xyz"},
		{"    update_password = 'Hunter2!xyz'\n", "Hunter2!xyz"},
		{"    ACCESS_TOKEN_METHOD = 'Xk9#mQ2v!pL'\n", "Xk9#mQ2v!pL"},
		{"        secret_shares='Xk9mQ2vpL77'\n", "Xk9mQ2vpL77"},
		{"        Args:\n            password: hunter2\n", "hunter2"},
		{"            vcenter_password=Xk9mQ2vpL77rTq,\n", "Xk9mQ2vpL77rTq"},
		{"            password=os.environ.get('DB_PASSWORD') or 'Hunter2!xyz',\n", "Hunter2!xyz"},
		{"    password: Hunter2xyz,\n", "Hunter2xyz"},
		{"aws_secret_access_key: value with quotes and spaces\n", "value with quotes and spaces"},
		{"password = salt and pepper\n", "salt and pepper"},
		{"DB_PASSWORD=hunter22x and more\n", "hunter22x"},
		{"    secret=settings.token or 'Hunter2!xyz'\n", "Hunter2!xyz"},
		{"db:\n  password: tokens[1]\n", "tokens[1]"},
		{"                password_prompt = 'Hunter2!xyz'\n", "Hunter2!xyz"},
		{"    password: correct horse battery staple\n", "correct horse battery staple"},
	})
}

func TestPythonDocstringValueLists(t *testing.T) {
	t.Parallel()
	san, err := NewSanitizer()
	require.NoError(t, err)
	requireKept(t, san,
		// Values a docstring lists, and reST markup around a placeholder.
		"     **Disallowed values:** \"abc@123\", \"P@$$w0rd\", \"P@ssw0rd\", \"P@ssword123\", \"Pa$$word\",\n     \"pass@word1\", \"Password!\", \"Password1\", \"Password22\", \"iloveyou!\".\n",
		"    :ivar name: The password name. Possible values include: \"password\", \"password2\".\n",
		"    :ivar provisioning_state: Status of the Key Vault secret. Known values are: \"Initialized\",\n     \"OperationNotPermittedOnKeyVault\", \"AzureServiceUnauthorizedToAccessKeyVault\",\n",
		"    :ivar enc: The encryption algorithm to use. Known values\n     are: \"CKM_RSA_AES_KEY_WRAP\", \"RSA_AES_KEY_WRAP_256\", and \"RSA_AES_KEY_WRAP_384\".\n",
		"         Specify $skipToken=:code:`<token>` to populate the next page in the list.\n",
		// Code that names an authorization.
		"        enable_rbac_authorization: Optional[bool] = None,\n",
		"        self.enable_rbac_authorization = enable_rbac_authorization\n",
		"    invalid_authorization = \"InvalidAuthorization\"\n",
		"    :ivar enable_rbac_authorization: Property that controls how data actions are authorized.\n",
	)
	requireMasked(t, san, []maskedRow{
		{"    creds = (\"password\", \"Xk9mQ2vpL77\")\n", "Xk9mQ2vpL77"},
		{"    :ivar name: Possible values include: \"password\", \"password2\". Set(\"password\", \"Xk9mQ2vpL77\")\n", "Xk9mQ2vpL77"},
		{"    proxy_authorization = \"Basic dXNlcjpwYXNzd29yZA==\"\n", "dXNlcjpwYXNzd29yZA=="},
		{"    authorization: Xk9mQ2vpL77rTqZ\n", "Xk9mQ2vpL77rTqZ"},
		{"    authorization = \"correcthorsebattery\"\n", "correcthorsebattery"},
		{"         Specify $skipToken=Xk9mQ2vpL77rTqZ to populate the next page.\n", "Xk9mQ2vpL77rTqZ"},
	})
}

func TestLDAPSchemaDefinition(t *testing.T) {
	t.Parallel()
	san, err := NewSanitizer()
	require.NoError(t, err)
	requireKept(t, san,
		"            \"( 2.5.4.0 NAME 'objectClass' DESC 'RFC4512: object classes of the entity' EQUALITY objectIdentifierMatch SYNTAX 1.3.6.1.4.1.1466.115.121.1.38 )\",\n",
		"            \"( 2.5.18.1 NAME 'createTimestamp' DESC 'RFC4512: time which object was created' )\",\n",
	)
	requireMasked(t, san, []maskedRow{
		{"server 10.0.0.5 root Secr3t!xQ\n", "Secr3t!xQ"},
		{"( 10.0.0.5 root Secr3t!xQ )\n", "Secr3t!xQ"},
		{"10.0.0.5 NAME Secr3t!xQ\n", "Secr3t!xQ"},
	})
}

func TestPythonPlaceholdersAndFlags(t *testing.T) {
	t.Parallel()
	san, err := NewSanitizer()
	require.NoError(t, err)
	requireKept(t, san,
		// A docstring field of one word closed by a full stop; Epytext's type links.
		"        :keyword sas_token_parameters: Required.\n",
		"    :ivar credential: Anything.\n",
		"        @type magic: L{bytes}\n        @type password: L{unicode}\n",
		// Where a value goes, a state byte, a member as a default.
		"            'Invalid private key: {0!r}', errors=(ValueError,)\n",
		"                        'secret = %%s, issued = %%s, '\n",
		"                respToken['NegState'] = b'\\x01'\n",
		"               secret=values.unset):\n",
	)
	requireMasked(t, san, []maskedRow{
		{"        :keyword password: Hunter2.\n", "Hunter2"},
		{"        @type password: Hunter2xyz!\n", "Hunter2xyz!"},
		{"    password = '%Xk9mQ2'\n", "Xk9mQ2"},
		{"    secret=Xk9mQ2vpL77.rTq):\n", "Xk9mQ2vpL77"},
		// A .env or shell line's value is text, not a member: SECRET=release.candidate.
		{"SECRET=release.candidate\n", "release.candidate"},
		{"export API_TOKEN=staging.rotation\n", "staging.rotation"},
	})
}

func TestPythonVocabulariesAndTemplates(t *testing.T) {
	t.Parallel()
	san, err := NewSanitizer()
	require.NoError(t, err)
	requireKept(t, san,
		// A lexer's keywords: one literal of a long list.
		"                'global', 'if', 'include', 'lambda', 'nogil', 'pass', 'print',\n",
		"    'nan', 'nologin', 'not', 'null', 'of', 'on', 'options', 'or', 'order', 'password', 'permission',\n",
		// Names of code joined by or, a scheme, a pattern, a template formatted at once.
		"        self.token_generator = token_generator or random_token_generator\n",
		"        ResourceEndpoint.__init__(self, default_token='Bearer',\n",
		"    _TOKEN_REF = r'[A-Z]\\w*'\n",
		"LS32_PAT = \"(?:{hex}:{hex}|{ipv4})\".format(hex=HEX_PAT, ipv4=IPV4_PAT)\n",
		"        toolskey = \"%s\\\\Setup\\\\VC\\\\productdir\" % version\n",
		"                        creds = \"%s:%s\" % (user, pw)\n",
	)
	requireMasked(t, san, []maskedRow{
		{"    rows = (\"alice\", \"admin\", \"password\", \"Xk9mQ2vpL77\")\n", "Xk9mQ2vpL77"},
		{"    rows = (\"x\", \"alice\", \"admin\", \"password\", \"Xk9mQ2vpL77\")\n", "Xk9mQ2vpL77"},
		{"    password = \"Hunter2xyz\" % x\n", "Hunter2xyz"},
		{"    token = 'Xk9mQ2vpL77rT'.format(x)\n", "Xk9mQ2vpL77rT"},
		{"    _TOKEN_REF = r'Xk9mQ2vpL77rT'\n", "Xk9mQ2vpL77rT"},
		{"    default_token = 'bearer-Xk9mQ2vpL77rT'\n", "Xk9mQ2vpL77rT"},
		{"    password = my_secret_value and 'Hunter2!xyz'\n", "Hunter2!xyz"},
	})
}

func TestPythonThirdProbeShapes(t *testing.T) {
	t.Parallel()
	san, err := NewSanitizer()
	require.NoError(t, err)
	requireKept(t, san,
		// Prose after a .netrc token's word, in a text that names a machine.
		"    :ivar os_type: The virtual machine's OS.\n    :keyword storage_account_type: Specifies the storage account type for the managed disk. NOTE:\n",
		"        Use a virtual machine with UltraSSD_LRS storage account type.\n",
		// reST markup around a placeholder under a registry's "password".
		"     {\"data\":\"<Base64-encoded-certificate>\", \"dataType\":\"pfx\",\n     \"password\":\":code:`<pfx-file-password>`\":code:`<br>`}.\n",
		// A generated OpenAPI model's member types.
		"    openapi_types = {\n        'secret_ref': 'V1SecretReference',\n        'token_requests': 'list[StorageV1TokenRequest]',\n        'secret': 'V1SecretProjection',\n        'credentials': 'dict(str, V1Credential)',\n        'token': 'str',\n    }\n",
		"    swagger_types = {\n        'secret_ref': 'V1LocalObjectReference',\n    }\n",
		// A GUID every WebSocket implementation writes.
		"WS_KEY: Final[bytes] = b\"258EAFA5-E914-47DA-95CA-C5AB0DC85B11\"\n",
		"    GUID = \"258EAFA5-E914-47DA-95CA-C5AB0DC85B11\"\n",
		// A variable the same code assigns.
		"        v2_api_token = env.get('CLC_V2_API_TOKEN', False)\n        if v2_api_token and clc_alias:\n            self.clc._LOGIN_TOKEN_V2 = v2_api_token\n",
		"        v2_api_passwd = env.get('CLC_V2_API_PASSWD', False)\n        if v2_api_passwd:\n            clc.v2.SetCredentials(\n                api_username=v2_api_username,\n                api_passwd=v2_api_passwd)\n",
	)
	requireMasked(t, san, []maskedRow{
		{"machine api.example.com login deploy password Xk9mQ2vLp7wR\n", "Xk9mQ2vLp7wR"},
		{"machine api.example.com\n  login deploy\n  password Xk9mQ2vLp7wR\n  account ops\n", "Xk9mQ2vLp7wR"},
		{"machine api.example.com login deploy password hunter2. account ops\n", "hunter2."},
		{"machine h login u account acct9Xk2 password Xk9mQ2vLp7wR\n", "Xk9mQ2vLp7wR"},
		{"{\"auths\": {\"r.io\": {\"password\": \"Xk9mQ2vLp7wR\"}}}\n", "Xk9mQ2vLp7wR"},
		{"    openapi_types = {\n        'secret_ref': 'Xk9mQ2vLp7wR',\n    }\n", "Xk9mQ2vLp7wR"},
		{"    secrets = {\n        'secret': 'V1SecretProjection',\n    }\n", "V1SecretProjection"},
		{"WS_KEY = b\"3F2504E0-4F89-41D3-9A0C-0305E82C3301\"\n", "3F2504E0-4F89-41D3-9A0C-0305E82C3301"},
		{"        token = tok3n_Xk9mQ2\n", "tok3n_Xk9mQ2"},
		{"        self._LOGIN_TOKEN_V2 = v2_api_token\n", "v2_api_token"},
		{"        v2_api_passwd = 'Xk9mQ2vLp7wR'\n        clc.login(api_passwd=v2_api_passwd)\n", "Xk9mQ2vLp7wR"},
	})
}

// Lines of celery/celery (BSD-3-Clause), psf/requests and boto/boto3 (Apache-2.0) and
// mathiasbynens/dotfiles (MIT): variables passed under a secret's name, a credential class or a secret's name where
// a URL's user goes, digest algorithms in a tuple, id parameters of a link, an archived
// object's base64 in a Terminal profile. The rows of secrets are made up.
func TestLibraryCodeShapes(t *testing.T) {
	t.Parallel()
	san, err := NewSanitizer()
	require.NoError(t, err)
	t.Run("kept", func(t *testing.T) {
		requireKept(t, san,
			"        self.password = upass or config.get('password', self.password)",
			"                secret_access_key=aws_secret_access_key",
			"                    'aws_secret_access_key': secret_access_key",
			"        azureblockblob://DefaultAzureCredential@STORAGE_ACCOUNT_URL",
			"    result_backend = 'dynamodb://aws_access_key_id:aws_secret_access_key@region:port/table?read=n&write=m'",
			`    digest_auth_algo = ("MD5", "SHA-256", "SHA-512")`,
			"Requests is currently [depended upon](https://github.com/psf/requests/network/dependents?package_id=UGFja2FnZS01NzA4OTExNg%3D%3D) by `4,000,000+` repositories.",
			"`Official Announcement <https://www.linkedin.com/pulse/celery-now-powered-blacksmith-tomer-nosrati-ew68e/?trackingId=DWHH49WqS2iOW8Jf5N1kEg%3D%3D>`_",
			"\texport TERM='gnome-256color';",
			`key = "3abb98124e8d30c9652976c9d34a7380036083b5"`,
			"password = $dbPassword",
			"PASSWORD=$DB_PASSWORD",
			"machine learning.\n    \"description\": \"[``botocore``] Fixed an issue with cross account QueryLineage\",",
			"    \"description\": \"[``botocore``] Adding support for `sso-oauth:CreateTokenWithIAM`.\",",
			// A block of a property list's <data> seen from its middle: the archive's
			// class names are in other lines of the block.
			"\t<key>blackColour</key>\n\t<data>\n\tBAtzdHJlYW10eXBlZIHoA4QBQISEhAdOU0NvbG9yAISECE5TT2JqZWN0AIWEAWMBhARm\n\tZmZmg7JNIT2DkvUjPoO+F0s+AYY=\n\t</data>",
			"\tLjAxNTkyNDQwNTMxIDAuMTI2NTIwOTE2OCAwLjE1OTY5NjAxMjcAEAGAAtIQERITWiRj\n\tbGFzc25hbWVYJGNsYXNzZXNXTlNDb2xvcqISFFhOU09iamVjdF8QD05TS2V5ZWRBcmNo\n\taXZlctEXGFRyb290gAEIERojLTI3O0FITltijY+RlqGqsrW+0NPYAAAAAAAAAQEAAAAA",
		)
	})
	t.Run("masked", func(t *testing.T) {
		requireMasked(t, san, []maskedRow{
			{"api_key=api_key_prod_Zx8kq2pLm9", "api_key_prod_Zx8kq2pLm9"},
			{"SECRET_KEY=super_secret_key_9", "super_secret_key_9"},
			{"https://app.acme.io/cb?session_id=Zx8kq2pLm9Qw4rT7vB3nY6uI1oP5aS8d%3D%3D", "Zx8kq2pLm9Qw4rT7vB3nY6uI1oP5aS8d"},
			{"redis://deploy:Zx8kq2pLm9Qw@cache.internal:6379/0", "Zx8kq2pLm9Qw"},
			{"amqp://Zx8kq2pLm9Qw4rT7vB3nY6uI@mq.internal//", "Zx8kq2pLm9Qw4rT7vB3nY6uI"},
			{`session = login("deploy", "Zx8kq2pLm9")`, "Zx8kq2pLm9"},
			{"self.password = Zx8kq2pLm9Qw or None", "Zx8kq2pLm9Qw"},
			{"machine api.heroku.com\n  login deploy@ci\n  password Zx8kq2pLm9\n  account Qw4rT7vB3n", "Qw4rT7vB3n"},
			{"X-Auth-Token: Zx8kq2pLm9Qw4rT7", "Zx8kq2pLm9Qw4rT7"},
			// A password that opens with $ in a language without $ variables; not a variable's
			// name ($dbPassword, $DB_PASSWORD stay as they are: see the kept rows).
			{"    password='$up3rS3cr3tV4lue',", "$up3rS3cr3tV4lue"},
			// key alone before hex of a key's length (a service's 36 digits, AES's 32 and 64);
			// a SHA-1's 40 stays, a digest kept under key.
			{`key = "E58EBE82A45B9B1FBA6E08FDC33B481372E9"` + "\nVultrApp(key)", "E58EBE82A45B9B1FBA6E08FDC33B481372E9"},
			{`'key' => '2109D6F4A1C3E5B7092F4D6E8A1B3C5D',`, "2109D6F4A1C3E5B7092F4D6E8A1B3C5D"},
			{"\tZx8kq2pLm9Qw4rT7vB3nY6uI1oP5aS8dF2gH4jK6lZ8xC0vB\n\tQw4rT7vB3nY6uI1oP5aS8dF2gH4jK6lZ8xC0vBZx8kq2pLm9", "Zx8kq2pLm9Qw4rT7vB3nY6uI1oP5aS8d"},
		})
	})
}
