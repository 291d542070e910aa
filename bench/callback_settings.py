"""Settings of the server bench/topup_callbacks.py starts: the back-office's own, with the URLs
of bench/callback_urls.py (the product's, plus the view the callbacks are compared with).

    DJANGO_SETTINGS_MODULE=callback_settings (with bench/ on PYTHONPATH)
"""

from backoffice.settings import *  # noqa: F403  (the product's own settings, unchanged)

ROOT_URLCONF = "callback_urls"
