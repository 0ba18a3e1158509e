package vibe

import "testing"

func TestIaCShapes(t *testing.T) {
	san := testSanitizer(t)
	// A value: child under a password-named key is the password; a reference there is not.
	requireMasked(t, san, []maskedRow{
		{"    mock-proxy-password:\n      value: testpwd\n", "testpwd"},
		{"    dev-proxy-password:\n      value: \"Xq7#pL2vRw\"\n", "Xq7#pL2vRw"},
		{"env:\n  - name: DB_PASSWORD\n    value: s3cr3tPass\n", "s3cr3tPass"},
		{"        - name: \"ADMIN_PASSWORD\"\n          value: 'Adm1n!2024'\n", "Adm1n!2024"},
		// A token-named property that holds no token does not shield a real one elsewhere.
		{"Properties:\n  ServiceToken: arn:aws:lambda:us-east-1:123456789012:function:x\n  ApiToken: 9fQ2xLr7Tz8WmK3vBn6Yc", "9fQ2xLr7Tz8WmK3vBn6Yc"},
		{"  token = \"ghp_4bD9xQ2mLr7Tz8WmK3vBn6YcP1sE0aUjH5gF\"", "ghp_4bD9xQ2mLr7Tz8WmK3vBn6YcP1sE0aUjH5gF"},
		// A number followed by something other than protobuf options is still a value.
		{"DB_TOKEN = 83746519[x", "83746519[x"},
		{"api_token = 1234567890abcdef1234", "1234567890abcdef1234"},
	})
	requireKept(t, san,
		"    db-password:\n      value: ${DB_PASSWORD}\n",
		"env:\n  - name: DB_PASSWORD\n    valueFrom:\n      secretKeyRef:\n        name: db\n",
		"  GetSubnets:\n    Type: AWS::CloudFormation::CustomResource\n    Properties:\n      ServiceToken: anArn",
		"      ServiceToken: arn:aws:lambda:us-east-1:123456789012:function:subnets",
		"resource \"aws_efs_file_system\" \"fs\" {\n  creation_token = \"my-product-fs\"\n}",
		"  DATA_A_TOKEN = 11[deprecated=true] ;",
		"  DATA_A_PRIVATE_KEY = 2[deprecated = false];",
		"  DATA_A_SECRET = 5[deprecated=true];",
		"  DATA_B_TOKEN = 2 [\n    (string_name) = \"display_value\"\n  ];",
		"  string session_token = 7 [(validate.rules).string.min_len = 1];",
	)
}
