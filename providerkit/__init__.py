"""The transport kit every provider client shares: pure Python, no Django.

Typed JSON readers, timeouts, the provider-call hook (metrics and contact recording are
plugged in by the back-office) and the mapping of transport failures to each client's errors.
"""
