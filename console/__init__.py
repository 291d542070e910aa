"""The merchant's account at the provider as its console shows it: services, domains, origins.

A service is a storage service (a bucket and its operator) or a CDN service whose origin is the
merchant's own server; each has domains, and every delivery setting belongs to one domain. The
storage, media and delivery apps build on these records; this app imports none of them.
"""
