"""The console port: the provider's management API (DECISIONS: "Services, domains and the
provider's console"; docs/decisions.md: "Services, domains and the console API")."""
