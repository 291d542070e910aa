"""Storage paths as the media pages take them: checked, classified and named. Pure Python.

The provider addresses files by their path inside the bucket (`/videos/a.mp4`): it must start
with `/`, and it is refused when it climbs (`..`) or has empty segments. These checks run in
the forms so that a typing mistake is named before anything is sent.
"""

from __future__ import annotations

import posixpath

MAX_PATH_LENGTH = 1024
PLAYLIST_SUFFIXES = (".m3u8",)
PLAYLIST_TYPES = ("application/vnd.apple.mpegurl", "application/x-mpegurl", "audio/mpegurl",
                  "audio/x-mpegurl")
VIDEO_SUFFIXES = (".mp4", ".m4v", ".mov", ".mkv", ".webm", ".avi", ".flv", ".ts", ".mpg",
                  ".mpeg", ".3gp", ".wmv")
AUDIO_SUFFIXES = (".mp3", ".m4a", ".aac", ".wav", ".flac", ".ogg", ".opus", ".wma")
IMAGE_SUFFIXES = {"jpg": ".jpg", "png": ".png", "webp": ".webp"}


class PathProblem(ValueError):
    """A path the provider would refuse; the message says what is wrong with it."""


def check_path(value: str) -> str:
    """The path, stripped of surrounding spaces, or PathProblem with the reason.

    The messages are plain English here (no Django); the forms translate them by code.
    """
    path = value.strip()
    if not path:
        raise PathProblem("required")
    if len(path) > MAX_PATH_LENGTH:
        raise PathProblem("too_long")
    if not path.startswith("/"):
        raise PathProblem("not_absolute")
    if path.endswith("/"):
        raise PathProblem("folder")
    if any(ord(char) < 32 or ord(char) == 127 for char in path):
        raise PathProblem("control")
    segments = path[1:].split("/")
    if any(segment == "" for segment in segments):
        raise PathProblem("empty_segment")
    if any(segment in (".", "..") for segment in segments):
        raise PathProblem("dots")
    return path


def suffix_of(path: str) -> str:
    """`.mp4` for `/a/b.MP4`; '' when the name has no suffix."""
    return posixpath.splitext(posixpath.basename(path))[1].lower()


def _base_type(content_type: str | None) -> str:
    return (content_type or "").split(";")[0].strip().lower()


def is_playlist(path: str, content_type: str | None = None) -> bool:
    return suffix_of(path) in PLAYLIST_SUFFIXES or _base_type(content_type) in PLAYLIST_TYPES


def is_video(path: str, content_type: str | None = None) -> bool:
    base = _base_type(content_type)
    if base.startswith("video/"):
        return True
    return suffix_of(path) in VIDEO_SUFFIXES and not base.startswith(("audio/", "image/"))


def is_audio(path: str, content_type: str | None = None) -> bool:
    if is_playlist(path, content_type):
        return False
    return _base_type(content_type).startswith("audio/") or suffix_of(path) in AUDIO_SUFFIXES


def has_media_info(path: str, content_type: str | None = None) -> bool:
    """Files the Info page can describe: playlists, videos and audio."""
    return is_playlist(path, content_type) or is_video(path, content_type) or \
        is_audio(path, content_type)


def can_snapshot(path: str, content_type: str | None = None) -> bool:
    """The provider takes snapshots of playlists, MP4 and other video formats."""
    return is_playlist(path, content_type) or is_video(path, content_type)


def stem_and_folder(path: str) -> tuple[str, str]:
    """(`a`, `/videos`) for `/videos/a.mp4`; the folder of a top-level file is ''."""
    folder, name = posixpath.split(path)
    stem = posixpath.splitext(name)[0] or name
    return stem, folder.rstrip("/")


def suggested_snapshot_path(source: str, point: str = "00:00:00", image_format: str = "jpg") -> str:
    """`/videos/a_00-00-03.jpg` beside `/videos/a.mp4`: a name that does not clash with it."""
    stem, folder = stem_and_folder(source)
    return f"{folder}/{stem}_{point.replace(':', '-')}{IMAGE_SUFFIXES.get(image_format, '.jpg')}"


def suggested_playlist_path(source: str, label: str) -> str:
    """`/hls/a/index_clip.m3u8` beside `/hls/a/index.m3u8`."""
    stem, folder = stem_and_folder(source)
    return f"{folder}/{stem}_{label}.m3u8"
