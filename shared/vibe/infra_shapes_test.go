package vibe

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// The kept rows quote lines of prometheus-community/helm-charts (Apache-2.0: its charts'
// values, templates, NOTES.txt and READMEs), terraform-aws-modules/terraform-aws-eks
// (Apache-2.0: its tests' rendered user data and its docs) and
// hashicorp/terraform-provider-kubernetes (MPL-2.0: its guides), containers/netavark
// (Apache-2.0: its firewall code), coreos/zincati (Apache-2.0: its tests' rpm-ostree
// fixtures) and canonical/cloud-init (Apache-2.0, of its dual licence). The rows of secrets
// are made up.

func TestInfrastructureShapes(t *testing.T) {
	t.Parallel()
	san, err := NewSanitizer()
	require.NoError(t, err)
	t.Run("kept", func(t *testing.T) {
		requireKept(t, san,
			// a Secret's name, or a class's, under a name with secret in it
			"server:\n  configFromSecret: \"prometheus-config\"",
			"#        secretProviderClass: my-spc",
			"  tokenSecret: grafana-token-secret",
			"  apiKeySecret: datadog-api-key-secret",
			// a file's name under key: a ConfigMap's entry
			"  configMapRef:\n    name: {{ printf \"%s-%s\" (include \"kube-prometheus-stack.fullname\" $) \"k8s-coredns\" | trunc 63 | trimSuffix \"-\" }}\n    key: k8s-coredns.json",
			// where a mounted credential is
			"          env:\n            - name: GOOGLE_APPLICATION_CREDENTIALS\n              value: /etc/secrets/service-account/credentials.json",
			// a Helm template's Secret: its key and its lines are the template's
			"type: Opaque\nstringData:\n  {{ template \"prometheus-mysql-exporter.secretKey\" . }}: |\n      [client]\n      host={{ .Values.mysql.host }}\n      port={{ .Values.mysql.port }}\n      user={{ .Values.mysql.user }}\n      {{- if and (.Values.mysql.pass) (not .Values.mysql.existingPasswordSecret.name) }}\n      password={{ .Values.mysql.pass }}\n      {{- end }}",
			// a document's next paragraph after a command that reads a Secret
			"  kubectl get secret --namespace monitoring -l app.kubernetes.io/component=admin-secret -o jsonpath=\"{.items[0].data.admin-password}\" | base64 --decode ; echo\n\n\nVisit https://github.com/prometheus-operator/kube-prometheus for instructions on how to create & configure Alertmanager and Prometheus instances using the Operator.",
			// an API group and its version
			"data:\n  config.conf: |-\n    apiVersion: kubeproxy.config.k8s.io/v1alpha1\n    kind: KubeProxyConfiguration",
			// a cluster's endpoint, a user pool's issuer
			"  cluster_endpoint          = \"https://012345678903AB2BAE5D1E0BFE0E2B50.gr7.us-east-1.eks.amazonaws.com\"",
			"API_SERVER_URL=https://012345678903AB2BAE5D1E0BFE0E2B50.gr7.us-east-1.eks.amazonaws.com",
			"    apiServerEndpoint: https://012345678903AB2BAE5D1E0BFE0E2B50.gr7.us-east-1.eks.amazonaws.com",
			"      issuer_url     = \"https://cognito-idp.us-west-2.amazonaws.com/us-west-2_re1u6bpRA\"",
			// an upgrade guide's renamed resources, a resource's import id
			"| Old Name                                      | New Name                                                |\n| --------------------------------------------- | ------------------------------------------------------- |\n| kubernetes_secret                             | kubernetes_secret_v1                                    |",
			"terraform import kubernetes_manifest.secret_sample \"apiVersion=v1,kind=Secret,namespace=default,name=sample\"",
			// a Rust enum's variant by its path, an OSTree deployment's checksum and serial
			"                                expr::Expression::Named(expr::NamedExpression::Meta(expr::Meta {\n                                    key: expr::MetaKey::L4proto,\n                                },\n                            )),",
			"      \"id\" : \"fedora-coreos-967b7b8d624e6d10ff51c2e81ef198fae966c567ac2e9b479771c693d0987949.0\",",
			// a metadata service's fixed bearer word, a passwd entry's home, patterns, a key's
			// fingerprint, hashed known hosts, a WireGuard peer's public key
			"V2_HEADERS = {\"Authorization\": \"Bearer Oracle\"}",
			"        return (os.path.join(pw_ent.pw_dir, \".ssh\"), pw_ent)",
			"    shadow_empty_locked_passwd_patterns = [\"^{username}::\", \"^{username}:!:\"]",
			"TEST_KEYSERVER_KEY = \"1BC3 0F71 5A3B 8612 47A8  1A5E 55FE 7C8C 0165 013E\"",
			"      |1|YJEFAk6JjnXpUjUSLFiBQS1HjAw=|dWvIAMQmgSfoz7y7b4Cl1cD4gwE= ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl",
			"        PublicKey = 5ydsRnwo2V0Pb2lAyOqz7iVFwYXuGbkHeAcBTdfNYG4=",
		)
	})
	t.Run("masked", func(t *testing.T) {
		requireMasked(t, san, []maskedRow{
			{"  tokenSecret: Zx8kq2pLm9Qw4rT7", "Zx8kq2pLm9Qw4rT7"},
			{"    key: Qw4rT7aB3dE5fG7h,", "Qw4rT7aB3dE5fG7h"},
			{"        PrivateKey = 5ydsRnwo2V0Pb2lAyOqz7iVFwYXuGbkHeAcBTdfNYG4=", "5ydsRnwo2V0Pb2lAyOqz7iVFwYXuGbkHeAcBTdfNYG4="},
			{"V2_HEADERS = {\"Authorization\": \"Bearer Zx8kq2pLm9Qw4rT7aB3dE5\"}", "Zx8kq2pLm9Qw4rT7aB3dE5"},
			{"DIGITALOCEAN_TOKEN=dop_v1_967b7b8d624e6d10ff51c2e81ef198fae966c567ac2e9b479771c693d0987949", "967b7b8d624e6d10ff51c2e81ef198fae966c567ac2e9b479771c693d0987949"},
			{"  apiKeySecret: \"k8Zx2pLq9mW3vR7tQz4n\"", "k8Zx2pLq9mW3vR7tQz4n"},
			{"            - name: DB_PASSWORD\n              value: Zx8kq2pLm9Qw4rT7", "Zx8kq2pLm9Qw4rT7"},
			{"stringData:\n  db.password: |\n    Zx8kq2pLm9Qw4rT7", "Zx8kq2pLm9Qw4rT7"},
			{"kubectl get secret db -o jsonpath=\"{.data.password}\" | base64 -d ; echo\nZx8kq2pLm9Qw4rT7", "Zx8kq2pLm9Qw4rT7"},
			{"kubectl get secret db -o jsonpath=\"{.data.password}\" | base64 -d ; echo\n\nZx8kq2pLm9Qw4rT7", "Zx8kq2pLm9Qw4rT7"},
			{"client_id = \"482910573621-x7k2m9qwz4rt8vb1np5sd3fg6hj0lc2e.apps.googleusercontent.com\"", "x7k2m9qwz4rt8vb1np5sd3fg6hj0lc2e"},
			{"| password | password_Zx8kq2pL |", "password_Zx8kq2pL"},
			{"| db_password | Zx8kq2pLm9 |", "Zx8kq2pLm9"},
			{"secret = \"a=Zx8kq2pLm9Qw4rT7,b=c\"", "Zx8kq2pLm9Qw4rT7"},
			{"curl https://deploy:Zx8kq2pLm9Qw4rT7@012345678903AB2BAE5D1E0BFE0E2B50.gr7.us-east-1.eks.amazonaws.com/api", "Zx8kq2pLm9Qw4rT7"},
		})
	})
}
