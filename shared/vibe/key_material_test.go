package vibe

import "testing"

// Tink keysets: the material of a symmetric or private key is masked whatever its length;
// that of a public keyset or a KMS reference is left to the other rules (short, it is kept). A P-256 public point after a public-key
// name (Web Push's application server key) is kept; the private half, and the point under
// a private name, are masked.
func TestKeyMaterialShapes(t *testing.T) {
	san := testSanitizer(t)
	requireKept(t, san,
		`{"primaryKeyId":1931667682,"key":[{"keyData":{"typeUrl":"type.googleapis.com/google.crypto.tink.EcdsaPublicKey","value":"EgYIAxACGAIa","keyMaterialType":"ASYMMETRIC_PUBLIC"},"status":"ENABLED","keyId":1931667682,"outputPrefixType":"TINK"}]}`,
		`{"primaryKeyId":7301,"key":[{"keyData":{"typeUrl":"type.googleapis.com/google.crypto.tink.KmsAeadKey","value":"EjQKMmdjcC1r","keyMaterialType":"REMOTE"},"status":"ENABLED","keyId":7301,"outputPrefixType":"TINK"}]}`,
		"VAPID_PUBLIC_KEY=BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM",
		`  "vapidPublicKey": "BE7cFYQ2l4kASZ_7iKwAy6L2hztWwTKrwd41SkRJuGyo6J5vR9ATeUufONHzoaseSpKtcJbm5xLTkmo--IWpEt8",`,
		"\tWeb Push Public Key: BFEuu_r7cd5hElHB6P9Z1bysARpVxRljjRZEmlrfMTPT2G_GRTGrCOid4WCk4PAnyaFXLPa0sOLMnMMS1sMrMRs",
	)
	requireMasked(t, san, []maskedRow{
		{`{"primaryKeyId":65177451,"key":[{"keyData":{"typeUrl":"type.googleapis.com/google.crypto.tink.AesGcmKey","value":"GhBcKD0QJVkaSbbFnrmuIV+e","keyMaterialType":"SYMMETRIC"},"status":"ENABLED","keyId":65177451,"outputPrefixType":"TINK"}]}`, "GhBcKD0QJVkaSbbFnrmuIV+e"},
		{`{ "keyData": { "typeUrl": "type.googleapis.com/google.crypto.tink.Ed25519PrivateKey", "value": "EkCu7Tq3zZz0yq9q2R4kPp0l8y0vJ3fF", "keyMaterialType": "ASYMMETRIC_PRIVATE" } }`, "EkCu7Tq3zZz0yq9q2R4kPp0l8y0vJ3fF"},
		{`TINK_KEYSET='{"primaryKeyId":42,"key":[{"keyData":{"typeUrl":"type.googleapis.com/google.crypto.tink.HmacKey","value":"EgQIAxAgGiB1c2VyLXNlY3JldA","keyMaterialType":"SYMMETRIC"}}]}'`, "EgQIAxAgGiB1c2VyLXNlY3JldA"},
		{"VAPID_PRIVATE_KEY=LieO7JztGnRv11UxRNJlBkdoK97ePceW7rGXQh36c_4", "LieO7JztGnRv11UxRNJlBkdoK97ePceW7rGXQh36c_4"},
		{"VAPID_PRIVATE_KEY=BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM", "BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM"},
		{"GOOGLE_API_KEY=AQ.Ab8RN6KmZq3VtXbY9cW2pL7sD4fH1jG8kR5uE0aQ-zT_oI3nMX", "AQ.Ab8RN6KmZq3VtXbY9cW2pL7sD4fH1jG8kR5uE0aQ-zT_oI3nMX"},
		{"curl -H 'x-goog-api-key: AQ.Ab8Rq9Zr4Tm2Lx7Wc1Vb6Ny3Ks8Hd5Gf0Ja-Pe_Uo2Ri4Qt7wX' https://aiplatform.googleapis.com/v1/x", "AQ.Ab8Rq9Zr4Tm2Lx7Wc1Vb6Ny3Ks8Hd5Gf0Ja-Pe_Uo2Ri4Qt7wX"},
		{"AQ.Ab8Rz1Yx2Wv3Ut4Sr5Qp6On7Ml8Kj9Ih0Gf-Ed_Cb1Az2Yx3wX", "AQ.Ab8Rz1Yx2Wv3Ut4Sr5Qp6On7Ml8Kj9Ih0Gf-Ed_Cb1Az2Yx3wX"},
	})
}
