"""One process of the token race test: waits for the agreed moment, asks the shared token
provider for a token, and prints what happened as JSON (run by test_topup_token_sharing)."""

from __future__ import annotations

import json
import sys
import time


def main() -> None:
    start_at = float(sys.argv[1])
    import django

    django.setup()
    from topup import services
    from topup.services.shared_token import SharedTokenProvider

    client = services.build_client()
    fetched: list[str] = []

    def slow_fetch() -> str:
        time.sleep(0.5)  # widen the window in which the other process could refresh too
        token = client.refresh_token()
        fetched.append(token)
        return token

    provider = SharedTokenProvider(slow_fetch)
    time.sleep(max(0.0, start_at - time.time()))
    token = provider.current()
    print(json.dumps({"token": token, "fetched": len(fetched)}), flush=True)


if __name__ == "__main__":
    main()
