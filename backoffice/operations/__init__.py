"""Running across hosts: beat lease, heartbeats, readiness, metrics, logs, queue, provider calls."""
