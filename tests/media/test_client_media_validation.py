"""MediaClient refuses bad input before any request, naming the field."""

import pytest
import responses

from media.client import InvalidMediaRequest, MediaClient

BASE = "http://process.test:8104"


@pytest.fixture
def client():
    # No route is registered: any request that slipped through would fail the test.
    with responses.RequestsMock() as mock:
        yield MediaClient(BASE, "media-demo", "ops", "password")
        assert len(mock.calls) == 0


def fields(error: InvalidMediaRequest) -> list[tuple[str, str]]:
    return [(problem.field, problem.code) for problem in error.problems]


# --- snapshot ---


@pytest.mark.parametrize("point", ["1:00:00", "00:60:00", "00:00:60", "00:00", "00-00-01", "", 5])
def test_snapshot_rejects_a_point_that_is_not_hh_mm_ss(client, point):
    with pytest.raises(InvalidMediaRequest, match="point must be HH:MM:SS") as caught:
        client.snapshot("/v.mp4", "/a.jpg", point)
    assert fields(caught.value) == [("point", "invalid")]


@pytest.mark.parametrize("size", ["640", "640x", "0x360", "640X360", "-1x2", "640x360px", 640])
def test_snapshot_rejects_a_bad_size(client, size):
    with pytest.raises(InvalidMediaRequest) as caught:
        client.snapshot("/v.mp4", "/a.jpg", "00:00:01", size=size)
    assert fields(caught.value) == [("size", "invalid")]


@pytest.mark.parametrize("image_format", ["gif", "JPG", "jpeg", ""])
def test_snapshot_rejects_an_unknown_format(client, image_format):
    with pytest.raises(InvalidMediaRequest, match="jpg, png, webp") as caught:
        client.snapshot("/v.mp4", "/a.jpg", "00:00:01", format=image_format)
    assert fields(caught.value) == [("format", "invalid")]


@pytest.mark.parametrize("save_as", ["/a.gif", "/a", "/dir.v2/shot", "/a.jpeg"])
def test_snapshot_needs_a_format_when_the_suffix_cannot_give_one(client, save_as):
    with pytest.raises(InvalidMediaRequest, match="format is required") as caught:
        client.snapshot("/v.mp4", save_as, "00:00:01")
    assert fields(caught.value) == [("format", "required")]


def test_snapshot_lists_every_problem_at_once(client):
    with pytest.raises(InvalidMediaRequest) as caught:
        client.snapshot("", "/a.gif", "1:2:3", size="big")
    assert fields(caught.value) == [
        ("source", "required"),
        ("point", "invalid"),
        ("size", "invalid"),
        ("format", "required"),
    ]


# --- clip ---


@pytest.mark.parametrize(
    "span",
    [[10], [1, 2, 3], "0,10", [-1, 5], [5, 5], [6, 5], [0, float("nan")], [True, 3], ["0", "1"]],
)
def test_clip_rejects_bad_spans(client, span):
    with pytest.raises(InvalidMediaRequest) as caught:
        client.clip("/a.m3u8", "/b.m3u8", include=span)
    assert fields(caught.value) == [("include", "invalid")]


def test_clip_needs_whole_segment_numbers_when_indexing(client):
    with pytest.raises(InvalidMediaRequest, match="whole segment numbers") as caught:
        client.clip("/a.m3u8", "/b.m3u8", exclude=[1.5, 3], index=True)
    assert fields(caught.value) == [("exclude", "invalid")]


def test_clip_takes_a_single_segment_by_number():
    """Segment spans include both ends, so [3, 3] is segment 3 alone and is sent."""
    with responses.RequestsMock() as mock:
        mock.post(f"{BASE}/media-demo/m3u8er/clip", json={"status_code": 200, "message": "ok"})
        MediaClient(BASE, "media-demo", "ops", "password").clip(
            "/a.m3u8", "/b.m3u8", include=[3, 3], index=True)
        body = mock.calls[0].request.body
        assert isinstance(body, bytes) and b'"include":[3,3]' in body


def test_clip_refuses_a_reversed_segment_span(client):
    with pytest.raises(InvalidMediaRequest, match="must not be after its end") as caught:
        client.clip("/a.m3u8", "/b.m3u8", include=[4, 3], index=True)
    assert fields(caught.value) == [("include", "invalid")]


def test_clip_needs_a_span(client):
    with pytest.raises(InvalidMediaRequest, match="give include or exclude"):
        client.clip("/a.m3u8", "/b.m3u8")


def test_clip_index_must_be_a_boolean(client):
    with pytest.raises(InvalidMediaRequest) as caught:
        client.clip("/a.m3u8", "/b.m3u8", include=[0, 1], index="yes")
    assert fields(caught.value) == [("index", "type")]


def test_clip_requires_its_paths(client):
    with pytest.raises(InvalidMediaRequest) as caught:
        client.clip("  ", None, include=[0, 1])
    assert fields(caught.value) == [("m3u8", "required"), ("save_as", "type")]


# --- concat and metadata ---


@pytest.mark.parametrize(
    ("m3u8s", "expected"),
    [
        ([], [("m3u8s", "required")]),
        ("/a.m3u8", [("m3u8s", "type")]),
        (["/a.m3u8", ""], [("m3u8s[1]", "required")]),
        (["/a.m3u8", 3], [("m3u8s[1]", "type")]),
    ],
)
def test_concat_rejects_bad_playlists(client, m3u8s, expected):
    with pytest.raises(InvalidMediaRequest) as caught:
        client.concat(m3u8s, "/c.m3u8")
    assert fields(caught.value) == expected


def test_concat_requires_save_as(client):
    with pytest.raises(InvalidMediaRequest, match="save_as is required"):
        client.concat(["/a.m3u8"], "")


def test_metadata_calls_require_their_path(client):
    with pytest.raises(InvalidMediaRequest, match="m3u8 is required"):
        client.m3u8_meta("")
    with pytest.raises(InvalidMediaRequest, match="source is required"):
        client.av_meta("")
