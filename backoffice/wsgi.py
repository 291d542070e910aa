"""WSGI entry point of the back-office (gunicorn backoffice.wsgi)."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "backoffice.settings")
application = get_wsgi_application()
