"""Demo data for `make run` (hook: `load(stdout)`): idempotent, talks to the sandbox.

- a 3-second video (`/media-demo/colours.mp4`, 160x120, H.264 + AAC) and two short HLS
  playlists (`/media-demo/hls-a/index.m3u8`, 3 s, and `/media-demo/hls-b/index.m3u8`, 2 s),
  generated here with PyAV and uploaded through the storage app, so that Info, Snapshot,
  Clip and Concatenate all have something to work on; files already there are left alone;
- the first time only, two jobs (the video's info and a snapshot), so that the job pages are
  not empty.
"""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import TextIO

from django.contrib.auth import get_user_model

from backoffice.operations.provider import ProviderNotConfigured
from console.models import Service
from console.services import default_service
from media import demo_media, services
from media.models import ProcessingJob
from storage import services as storage

FOLDER = "/media-demo"
VIDEO = f"{FOLDER}/colours.mp4"
PLAYLIST_A = f"{FOLDER}/hls-a/index.m3u8"
PLAYLIST_B = f"{FOLDER}/hls-b/index.m3u8"
CONTENT_TYPES = {".mp4": "video/mp4", ".ts": "video/mp2t",
                 ".m3u8": "application/vnd.apple.mpegurl"}


def _exists(service: Service, path: str) -> bool:
    try:
        storage.file_details(service, path)
    except storage.NotFound:  # not there yet; any other failure is the caller's to report
        return False
    return True


def _upload(service: Service, local: Path, target: str) -> None:
    """One file to the bucket, synchronously, through the storage app's upload task."""
    task = storage.create_upload(
        service, source=local, target_path=target, original_name=local.name,
        size=local.stat().st_size,
        content_type=CONTENT_TYPES.get(local.suffix, ""), remove_source=False, enqueue=False)
    done = storage.run_upload(task.pk)
    if done is None or done.state != "done":
        raise RuntimeError(f"upload of {target} failed: {getattr(done, 'error', 'not run')}")


def _upload_playlist(service: Service, made: demo_media.Playlist, target: str) -> None:
    """Segments first, then the playlist, so the playlist never points at missing files."""
    folder = target.rsplit("/", 1)[0]
    for segment in made.segments:
        _upload(service, segment, f"{folder}/{segment.name}")
    _upload(service, made.playlist, target)


def upload_demo_files(service: Service, stdout: TextIO) -> None:
    missing = [path for path in (VIDEO, PLAYLIST_A, PLAYLIST_B) if not _exists(service, path)]
    if not missing:
        stdout.write(f"  media: demo files already in {FOLDER}\n")
        return
    with tempfile.TemporaryDirectory(prefix="media-demo-") as scratch:
        work = Path(scratch)
        if VIDEO in missing:
            _upload(service, demo_media.make_video(work / "colours.mp4", 3, "demo"), VIDEO)
        if PLAYLIST_A in missing:
            _upload_playlist(service, demo_media.make_playlist(work / "a", 3, label="A"),
                             PLAYLIST_A)
        if PLAYLIST_B in missing:
            _upload_playlist(service,
                             demo_media.make_playlist(work / "b", 2, offset=3, label="B"),
                             PLAYLIST_B)
    stdout.write(f"  media: uploaded {', '.join(missing)}\n")


def run_demo_jobs(service: Service, stdout: TextIO) -> None:
    if ProcessingJob.objects.exists():
        return
    user = get_user_model().objects.filter(username="demo").first()
    jobs = [
        services.read_info(service, VIDEO, user=user),
        services.take_snapshot(service, VIDEO, f"{FOLDER}/colours_00-00-01.jpg", "00:00:01",
                               user=user),
    ]
    for job in jobs:
        stdout.write(f"  media: demo job #{job.pk} ({job.kind}) {job.state}\n")


def load(stdout: TextIO) -> None:
    try:
        service = default_service()
        upload_demo_files(service, stdout)
        run_demo_jobs(service, stdout)
    except ProviderNotConfigured as error:
        stdout.write(f"  media: demo data not loaded: {error}\n")
    except Exception as error:
        # Demo data must never stop `make run`; say what went wrong and carry on.
        stdout.write(f"  media: demo data not loaded: {type(error).__name__}: {error}\n")
