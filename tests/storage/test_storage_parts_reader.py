"""PartReader: each part's bytes and MD5, and a whole-file MD5 that is right whatever order the
provider makes us read parts in (plain run, resume, resync back or forward)."""

import hashlib
import io
import os
import sys
import threading

import pytest

from storage.parts import PART_SIZE, READER_NICENESS, PartReader, SourceChanged, part_count

LENGTH = 3 * PART_SIZE + 12_345  # three whole parts and a short last one


@pytest.fixture
def payload() -> bytes:
    return bytes((index * 7) % 256 for index in range(LENGTH))


def whole(payload: bytes) -> str:
    return hashlib.md5(payload).hexdigest()


def test_part_count_rounds_up_to_whole_parts():
    assert [part_count(n) for n in (1, PART_SIZE, PART_SIZE + 1, LENGTH)] == [1, 1, 2, 4]


def test_parts_in_order_carry_their_bytes_and_md5_and_add_up_to_the_file(payload):
    with PartReader(io.BytesIO(payload), LENGTH) as reader:
        parts = [reader.take(part_id) for part_id in range(reader.count)]
        whole_md5 = reader.whole_md5()
    assert [part.part_id for part in parts] == [0, 1, 2, 3]
    assert b"".join(part.data for part in parts) == payload
    assert len(parts[-1].data) == 12_345
    assert all(part.md5 == hashlib.md5(part.data).hexdigest() for part in parts)
    assert whole_md5 == whole(payload)


def test_a_resumed_upload_hashes_the_parts_it_skips(payload):
    with PartReader(io.BytesIO(payload), LENGTH) as reader:
        reader.take(2)
        reader.take(3)
        assert reader.whole_md5() == whole(payload)


def test_a_part_read_again_after_a_resync_back_is_not_counted_twice(payload):
    with PartReader(io.BytesIO(payload), LENGTH) as reader:
        reader.take(0)
        reader.take(1)
        reader.read_ahead(2)  # as the upload does once part 1 is on the wire
        again = reader.take(1)
        assert again.data == payload[PART_SIZE : 2 * PART_SIZE]
        reader.take(2)
        reader.take(3)
        assert reader.whole_md5() == whole(payload)


def test_a_resync_forward_hashes_the_parts_jumped_over(payload):
    with PartReader(io.BytesIO(payload), LENGTH) as reader:
        reader.take(0)
        reader.take(3)
        assert reader.whole_md5() == whole(payload)


def test_completion_alone_hashes_the_whole_file(payload):
    with PartReader(io.BytesIO(payload), LENGTH) as reader:
        assert reader.whole_md5() == whole(payload)


def test_a_part_read_ahead_is_the_one_taken_next(payload):
    with PartReader(io.BytesIO(payload), LENGTH) as reader:
        reader.take(0)
        reader.read_ahead(1)
        reader.read_ahead(2)  # one part ahead at most: ignored
        assert reader.take(1).data == payload[PART_SIZE : 2 * PART_SIZE]
        reader.read_ahead(2)
        assert reader.take(3).data == payload[3 * PART_SIZE :]  # a resync skips the read-ahead
        reader.read_ahead(4)  # past the last part: nothing to read
        assert reader.whole_md5() == whole(payload)


def test_a_file_cut_short_since_the_start_is_reported_as_changed(payload):
    with PartReader(io.BytesIO(payload[: 2 * PART_SIZE + 10]), LENGTH) as reader:
        reader.take(0)
        with pytest.raises(SourceChanged, match=f"not the {LENGTH} it had"):
            reader.take(2)
        with pytest.raises(SourceChanged):
            reader.whole_md5()


def test_a_part_outside_the_file_is_refused(payload):
    with PartReader(io.BytesIO(payload), LENGTH) as reader:
        with pytest.raises(IndexError, match="part 4 is not in 0..3"):
            reader.take(4)
        with pytest.raises(IndexError):
            reader.take(-1)


def test_the_worker_thread_stops_with_the_reader(payload):
    reader = PartReader(io.BytesIO(payload), LENGTH)
    reader.take(0)
    reader.close()
    reader.read_ahead(1)  # a late notice from a body sent earlier is ignored
    with pytest.raises(RuntimeError):
        reader.take(1)


def test_a_known_md5_is_taken_as_given_and_the_file_is_not_hashed_whole(payload):
    known = "0123456789abcdef0123456789abcdef"
    with PartReader(io.BytesIO(payload), LENGTH, known_md5=known) as reader:
        parts = [reader.take(part_id) for part_id in range(reader.count)]
        assert reader.whole_md5() == known
    assert b"".join(part.data for part in parts) == payload


@pytest.mark.skipif(sys.platform != "linux", reason="per-thread niceness is a Linux feature")
def test_the_reading_thread_runs_nicer_than_the_sending_one(payload):
    seen: dict[str, int] = {}

    def note_priority(name: str) -> None:
        seen[name] = os.getpriority(os.PRIO_PROCESS, threading.get_native_id())

    with PartReader(io.BytesIO(payload), LENGTH) as reader:
        reader._worker.submit(note_priority, "reader").result()
    note_priority("caller")
    assert seen["reader"] >= min(seen["caller"] + READER_NICENESS, 19)
