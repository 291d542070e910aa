"""The access settings refuse values they do not understand, naming the variable."""

import pytest

from tests.foundation.test_environment_settings import start_with


@pytest.mark.parametrize(("variable", "value"), [
    ("SESSION_IDLE_S", "eight hours"),
    ("SESSION_IDLE_S", "10"),
    ("SESSION_MAX_S", "a week"),
    ("SESSION_MAX_S", "59"),
    ("API_TOKEN_DAYS", "ninety"),
    ("API_TOKEN_DAYS", "0"),
    ("API_TOKEN_RATE_PER_MINUTE", "60/min"),
])
def test_it_refuses_to_start_naming_the_access_variable(variable, value):
    result = start_with(**{variable: value})
    assert result.returncode != 0
    assert f"{variable}:" in result.stderr
