"""Demo data for `make run`: folders with generated images, a text file and a 12 MiB file that
goes through the resumable path, uploaded through the services to the configured bucket; and a
few files in the second storage service, `demo-videos` (console/demo.py makes it), so that the
file browser has two buckets to switch between.

Idempotent: a folder or file that is already there is left alone.
"""

from __future__ import annotations

import io
import random
import uuid
from typing import TextIO

from PIL import Image, ImageDraw

from backoffice.operations.provider import ProviderNotConfigured
from console import demo as console_demo
from console.models import Service, ServiceKind
from console.services import default_service
from storage import services
from storage.models import UploadTask
from storage.services import FolderExists, StorageError

ROOT = "/demo"
FOLDERS = ("/demo/photos/2024", "/demo/photos/2025", "/demo/docs", "/demo/videos")
IMAGES = (
    ("/demo/photos/2024/sunrise.jpg", (960, 640), ((255, 170, 60), (120, 40, 140)), "JPEG"),
    ("/demo/photos/2024/harbour.png", (800, 600), ((30, 90, 160), (200, 230, 250)), "PNG"),
    ("/demo/photos/2025/forest.jpg", (1024, 768), ((20, 80, 40), (170, 210, 120)), "JPEG"),
    ("/demo/photos/2025/logo.png", (256, 256), ((240, 240, 240), (47, 111, 222)), "PNG"),
)
README = "/demo/docs/readme.txt"
LARGE = "/demo/videos/sample-12MiB.bin"
LARGE_SIZE = 12 * 1024 * 1024
README_TEXT = (
    "Demo bucket of the merchant back-office.\n"
    "photos/ holds generated images, videos/ a 12 MiB file uploaded in 1 MiB parts.\n"
    "演示数据：图片、文本和一个分片上传的大文件。\n"
)
# The second bucket's files: posters and a note (no video: this app generates none).
VIDEOS_ROOT = "/videos"
VIDEOS_IMAGES = (
    ("/videos/posters/intro.jpg", (640, 360), ((10, 30, 60), (220, 80, 60)), "JPEG"),
    ("/videos/posters/trailer.png", (640, 360), ((40, 40, 40), (250, 200, 40)), "PNG"),
)
VIDEOS_NOTE = "/videos/readme.txt"
VIDEOS_NOTE_TEXT = (
    "The demo-videos bucket: a second storage service with its own operator and domain.\n"
    "第二个存储服务 demo-videos：有自己的操作员和域名。\n"
)


RGB = tuple[int, int, int]


def image_bytes(
    size: tuple[int, int], colours: tuple[RGB, RGB], image_format: str, label: str
) -> bytes:
    """A vertical gradient between two colours with a few shapes and the file's name."""
    width, height = size
    top, bottom = colours
    image = Image.new("RGB", size)
    draw = ImageDraw.Draw(image)
    for y in range(height):
        mix = y / max(height - 1, 1)
        draw.line([(0, y), (width, y)], fill=tuple(
            int(top[i] + (bottom[i] - top[i]) * mix) for i in range(3)))
    draw.ellipse([width * 0.6, height * 0.15, width * 0.85, height * 0.15 + width * 0.25],
                 fill=(255, 240, 200))
    draw.rectangle([width * 0.08, height * 0.7, width * 0.4, height * 0.92],
                   outline=(255, 255, 255), width=4)
    draw.text((width * 0.1, height * 0.75), label, fill=(255, 255, 255))
    buffer = io.BytesIO()
    image.save(buffer, image_format, quality=88)
    return buffer.getvalue()


def _upload(service: Service, path: str, data: bytes, stdout: TextIO) -> None:
    copy = services.upload_dir() / f"{uuid.uuid4().hex}.upload"
    copy.write_bytes(data)
    task = services.create_upload(
        service, source=copy, target_path=path, original_name=path.rsplit("/", 1)[-1],
        size=len(data),
        enqueue=False,
    )
    done = services.run_upload(task.pk)
    how = "in parts" if task.resumable else "in one request"
    if done is not None and done.state == UploadTask.State.DONE:
        stdout.write(f"  uploaded {path} ({len(data)} bytes, {how})\n")
    else:
        stdout.write(f"  could not upload {path}: {done.error if done else 'busy'}\n")


def _files() -> list[tuple[str, bytes]]:
    files = [
        (path, image_bytes(size, colours, image_format, path.rsplit("/", 1)[-1]))
        for path, size, colours, image_format in IMAGES
    ]
    files.append((README, README_TEXT.encode("utf-8")))
    return files


def _videos_files() -> list[tuple[str, bytes]]:
    files = [
        (path, image_bytes(size, colours, image_format, path.rsplit("/", 1)[-1]))
        for path, size, colours, image_format in VIDEOS_IMAGES
    ]
    files.append((VIDEOS_NOTE, VIDEOS_NOTE_TEXT.encode("utf-8")))
    return files


def load_videos(stdout: TextIO) -> None:
    """The demo files missing from `demo-videos`, then mirror its /videos."""
    service = Service.objects.filter(name=console_demo.VIDEOS, kind=ServiceKind.STORAGE).first()
    if service is None or service.needs_operator:
        stdout.write(f"  {console_demo.VIDEOS}: skipped (no such service with an operator)\n")
        return
    try:
        client = services.storage_client(service)
        for path, data in _videos_files():
            if not client.exists(path):
                _upload(service, path, data, stdout)
        run = services.sync_tree(service, VIDEOS_ROOT)
        stdout.write(f"  mirrored {run.seen} entries under {VIDEOS_ROOT} of {service.name}\n")
    except (ProviderNotConfigured, StorageError) as error:
        stdout.write(f"  {service.name} demo data stopped: {error}\n")


def load(stdout: TextIO) -> None:
    """Create the demo folders and files that are missing, then mirror /demo; the same for
    the second bucket's few files."""
    load_default(stdout)
    load_videos(stdout)


def load_default(stdout: TextIO) -> None:
    try:
        service = default_service()
        client = services.storage_client(service)
        for folder in FOLDERS:
            try:
                services.create_folder(service, folder.rsplit("/", 1)[0] or "/",
                                       folder.rsplit("/", 1)[1], client=client)
            except FolderExists:
                pass
        for path, data in _files():
            if not client.exists(path):
                _upload(service, path, data, stdout)
        if not client.exists(LARGE):
            # Generated, not random each time, so the demo is the same on every machine.
            _upload(service, LARGE, random.Random(LARGE_SIZE).randbytes(LARGE_SIZE), stdout)
        run = services.sync_tree(service, ROOT)
        stdout.write(f"  mirrored {run.seen} entries under {ROOT}\n")
    except ProviderNotConfigured as missing:
        stdout.write(f"  object storage skipped: {missing}\n")
    except StorageError as error:
        stdout.write(f"  object storage demo data stopped: {error}\n")
