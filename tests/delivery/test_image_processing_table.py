"""The back-office's rule of processing strings (the image builder, the custom versions and the
upload page's `x-gmkerl-thumb`) accepts and refuses the strings of the shared table of
cloud/image.md's examples (tests/image_processing_examples.py) exactly as the sandbox's edge
does, naming the key it refuses."""

from __future__ import annotations

import pytest

from delivery import image_rules
from delivery.problems import LinkError
from tests.image_processing_examples import ACCEPTED, REFUSED


@pytest.mark.parametrize("text", ACCEPTED)
def test_the_back_office_accepts_the_pages_strings(text: str) -> None:
    image_rules.parse_image_params(text)


@pytest.mark.parametrize(("text", "key"), REFUSED)
def test_the_back_office_refuses_bad_strings_naming_the_key(text: str, key: str) -> None:
    with pytest.raises(LinkError) as caught:
        image_rules.parse_image_params(text)
    assert caught.value.problems[0].field == key, str(caught.value)


@pytest.mark.parametrize("text", ACCEPTED)
def test_a_checked_string_is_written_back_as_the_same_keys(text: str) -> None:
    pairs = image_rules.parse_image_params(text)
    assert image_rules.parse_image_params(image_rules.image_params_text(pairs)) == [
        (name, value.upper() if name in image_rules.COLOURS else value)
        for name, value in pairs]
