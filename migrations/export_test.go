package migrations

// NewProviderForTest exposes the provider so tests can run migrations down.
var NewProviderForTest = newProvider
