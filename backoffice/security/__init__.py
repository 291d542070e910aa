"""Who may do what: access guards, roles, two-factor sign-in, throttling, confirmation, audit."""
