"""The access tests sign in with real passwords many times: a fast hasher keeps them quick
(the hasher is not what they test)."""

import pytest


@pytest.fixture(autouse=True)
def fast_password_hasher(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
