package vibe

import "testing"

// Type annotations between a credential's name and its initial value: Swift and Kotlin
// optional and implicitly unwrapped types, Rust references and lifetimes, generic
// arguments. The literal after `=` is masked; the type, and a value that is code (nil, a
// call, a Rust macro, a member), is kept.
func TestTypeAnnotationShapes(t *testing.T) {
	t.Parallel()
	san := testSanitizer(t)
	requireKept(t, san,
		"var password: String? = nil",
		"let password: String! = nil",
		"var txtFieldPassword: UITextField! = nil",
		"let passwordLabel: UILabel! = UILabel()",
		`let token: String? = UserDefaults.standard.string(forKey: "token")`,
		"val token: String? = null",
		"let secret: &str = &config.secret;",
		`const SECRET: &str = env!("APP_SECRET");`,
		`static API_KEY: &'static str = include_str!("../api_key.txt");`,
		"let token: Option<String> = None;",
		"let creds: HashMap<String, String> = HashMap::new();",
		"password: !vault |",
	)
	requireMasked(t, san, []maskedRow{
		{`let password: String! = "Vq3mZ8rT2kLw9xNp"`, "Vq3mZ8rT2kLw9xNp"},
		{`private var clientSecret: String? = "q8Zt2LmW9xRv4Kp7"`, "q8Zt2LmW9xRv4Kp7"},
		{`private let apiSecret: String! = "q8Zt2LmW9xRv4Kp7"`, "q8Zt2LmW9xRv4Kp7"},
		{`let password: Data! = "q8Zt2LmW9xRv4Kp7".data(using: .utf8)`, "q8Zt2LmW9xRv4Kp7"},
		{`let secret: &str = "Tr0ub4dor&3horse";`, "Tr0ub4dor&3horse"},
		{`static API_KEY: &'static str = "q8Zt2LmW9xRv4Kp7";`, "q8Zt2LmW9xRv4Kp7"},
		{`let key: &[u8] = b"q8Zt2LmW9xRv4Kp7";`, "q8Zt2LmW9xRv4Kp7"},
		{`let token: Option<&str> = Some("q8Zt2LmW9xRv4Kp7");`, "q8Zt2LmW9xRv4Kp7"},
		{"password: &anchor s3cr3tV4lue", "s3cr3tV4lue"},
		{"password: Summer2024! = my old one", "Summer2024!"},
	})
}
