"""The account's services, their operators and domains, and the console's own records (tokens,
certificates, refresh operations): the data the provider's console manages.

Below every service that reads it (storage, media, the edge, purge); the console's HTTP API,
which also changes the edge's settings and cache, is `sandbox.consoleapi`, above them.
"""
