"""The Snapshot page against the real sandbox: the image is saved in storage at the asked
size and format, shown through the back-office, and every bad field is named before any
call."""

from __future__ import annotations

import io

import pytest
from django.urls import reverse
from PIL import Image

from media.models import JobKind, JobState, ProcessingJob
from tests.media_fixtures import MediaLab, colour_at

pytestmark = pytest.mark.django_db
TOLERANCE = 40


def snapshot_form(**fields: str) -> dict[str, str]:
    return {"source": MediaLab.VIDEO, "point": "00:00:02", "size": "", "image_format": "",
            "save_as": "/snaps/frame.jpg", **fields}


def image_of(response) -> Image.Image:
    data = b"".join(response.streaming_content)
    image = Image.open(io.BytesIO(data))
    image.load()
    return image


def centre_is(image: Image.Image, colour: tuple[int, int, int]) -> bool:
    centre = image.convert("RGB").getpixel((image.width // 2, image.height // 2))
    assert isinstance(centre, tuple)
    return all(abs(got - want) <= TOLERANCE for got, want in zip(centre, colour, strict=True))


def test_the_file_browser_link_prefills_source_and_a_name_beside_it(operator_client):
    response = operator_client.get(reverse("media:snapshot"), {"path": "/videos/clip.mp4"})
    html = response.content.decode()
    assert 'value="/videos/clip.mp4"' in html
    assert 'value="/videos/clip_00-00-00.jpg"' in html


def test_a_snapshot_at_the_video_size_is_saved_and_shown(lab, operator_client):
    response = operator_client.post(reverse("media:snapshot"), snapshot_form(point="00:00:03"))
    job = ProcessingJob.objects.get()
    assert response.status_code == 302
    assert response["Location"] == reverse("media:job_detail", args=[job.pk])
    assert (job.kind, job.state) == (JobKind.SNAPSHOT, JobState.SUCCEEDED)
    assert job.sources == [MediaLab.VIDEO] and job.save_as == "/snaps/frame.jpg"
    assert job.parameters == {"point": "00:00:03", "format": "jpg"}
    assert job.answer["content_type"] == "image/jpeg"
    assert job.request_id

    page = operator_client.get(response["Location"]).content.decode()
    image_url = reverse("media:job_image", args=[job.pk])
    assert f'src="{image_url}"' in page

    shown = operator_client.get(image_url)
    assert shown.status_code == 200
    assert shown["Content-Type"] == "image/jpeg"
    assert shown["X-Content-Type-Options"] == "nosniff"
    image = image_of(shown)
    assert image.format == "JPEG"
    assert image.size == (lab.media.spec.width, lab.media.spec.height)
    assert centre_is(image, colour_at(3))
    stored = lab.read("/snaps/frame.jpg")
    assert job.answer["content_length"] == len(stored)


def test_a_snapshot_of_a_playlist_at_a_size_and_format(lab, operator_client):
    response = operator_client.post(reverse("media:snapshot"), snapshot_form(
        source=f"{MediaLab.HLS_FOLDER}/index.m3u8", point="0:00:05", size="64 x 48",
        image_format="png", save_as="/snaps/hls.png"))
    assert response.status_code == 302
    job = ProcessingJob.objects.get()
    assert job.parameters == {"point": "00:00:05", "size": "64x48", "format": "png"}
    shown = operator_client.get(reverse("media:job_image", args=[job.pk]))
    assert shown["Content-Type"] == "image/png"
    image = image_of(shown)
    assert (image.format, image.size) == ("PNG", (64, 48))
    assert centre_is(image, colour_at(5))


def test_a_jpeg_suffix_is_sent_as_the_jpg_format(lab, operator_client):
    response = operator_client.post(reverse("media:snapshot"),
                                    snapshot_form(save_as="/snaps/frame.jpeg"))
    assert response.status_code == 302
    job = ProcessingJob.objects.get()
    assert job.parameters["format"] == "jpg"
    assert image_of(operator_client.get(reverse("media:job_image", args=[job.pk]))).format \
        == "JPEG"


def test_a_name_without_suffix_takes_the_chosen_format(lab, operator_client):
    response = operator_client.post(reverse("media:snapshot"),
                                    snapshot_form(save_as="/snaps/thumb", image_format="webp"))
    assert response.status_code == 302
    job = ProcessingJob.objects.get()
    image = image_of(operator_client.get(reverse("media:job_image", args=[job.pk])))
    assert image.format == "WEBP"


@pytest.mark.parametrize(("fields", "field", "message"), [
    ({"source": ""}, "source", "Enter a storage path."),
    ({"source": "videos/a.mp4"}, "source", "starts with /"),
    ({"point": ""}, "point", "This field is required."),
    ({"point": "3"}, "point", "HH:MM:SS"),
    ({"point": "00:00:3"}, "point", "HH:MM:SS"),
    ({"point": "00:61:00"}, "point", "below 60"),
    ({"point": "00:00:05.5"}, "point", "HH:MM:SS"),
    ({"size": "320"}, "size", "&lt;width&gt;x&lt;height&gt;"),
    ({"size": "0x240"}, "size", "between 1 and 4096"),
    ({"size": "9000x10"}, "size", "between 1 and 4096"),
    ({"size": "-3x4"}, "size", "&lt;width&gt;x&lt;height&gt;"),
    ({"image_format": "gif"}, "image_format", "Select a valid choice"),
    ({"save_as": "/snaps/frame.gif"}, "save_as", "End the name with .jpg, .png or .webp"),
    ({"save_as": "/snaps/frame"}, "save_as", "End the name with .jpg, .png or .webp"),
    ({"save_as": "/snaps/frame.png", "image_format": "jpg"}, "image_format",
     "ends in .png but the format is jpg"),
    ({"save_as": MediaLab.VIDEO, "image_format": "jpg"}, "save_as", "overwrite its source"),
    ({"save_as": "/snaps/"}, "save_as", "This is a folder"),
])
def test_each_bad_field_is_named_and_nothing_is_sent(operator_client, fields, field, message):
    response = operator_client.post(reverse("media:snapshot"), snapshot_form(**fields))
    assert response.status_code == 400
    html = response.content.decode()
    errors = html[html.index(f'data-errors-for="{field}"'):]
    assert message in errors[:errors.index("</div>")]
    assert not ProcessingJob.objects.exists()


def test_the_image_of_a_job_that_is_not_a_snapshot_is_not_served(lab, operator_client):
    operator_client.post(reverse("media:info"), {"path": MediaLab.VIDEO, "read_as": "auto"})
    job = ProcessingJob.objects.get()
    assert operator_client.get(reverse("media:job_image", args=[job.pk])).status_code == 404


def test_an_image_gone_from_storage_is_a_clear_404(lab, operator_client):
    operator_client.post(reverse("media:snapshot"), snapshot_form())
    job = ProcessingJob.objects.get()
    lab.storage.request("DELETE", "/snaps/frame.jpg")
    response = operator_client.get(reverse("media:job_image", args=[job.pk]))
    assert response.status_code == 404


def test_an_image_storage_refuses_is_a_502_naming_the_refusal(lab, operator_client):
    operator_client.post(reverse("media:snapshot"), snapshot_form())
    job = ProcessingJob.objects.get()
    lab.sandbox.add_fault(service="storage", path="/snaps/frame.jpg", method="GET",
                          action="status", status=403, times=1,
                          body={"msg": "injected refusal", "code": 40300001, "id": "t"})
    response = operator_client.get(reverse("media:job_image", args=[job.pk]))
    assert response.status_code == 502
    assert "injected refusal" in response.content.decode()
