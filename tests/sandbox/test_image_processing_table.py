"""The sandbox's edge accepts and refuses the processing strings of the shared table of
cloud/image.md's examples (tests/image_processing_examples.py) exactly as the back-office's
rule does, naming the key it refuses."""

from __future__ import annotations

import pytest

from sandbox.delivery import imageparams
from sandbox.delivery.imageparams import ImageParamError
from tests.image_processing_examples import ACCEPTED, REFUSED


@pytest.mark.parametrize("text", ACCEPTED)
def test_the_edge_accepts_the_pages_strings(text: str) -> None:
    imageparams.parse(text)


@pytest.mark.parametrize(("text", "key"), REFUSED)
def test_the_edge_refuses_bad_strings_naming_the_key(text: str, key: str) -> None:
    with pytest.raises(ImageParamError) as caught:
        imageparams.parse(text)
    assert caught.value.key == key, str(caught.value)
