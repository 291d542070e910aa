"""The merchant-scale data set of bench/report_scale.py, built by PostgreSQL itself.

`build(scale)` fills a migrated, empty database with, at scale 1:

- 1,000,000 SMS messages over the last 30 days in 50 campaigns (campaign 1 holds 200,000),
  with the status mix of a real month (mostly delivered, some failed, a few still open);
- 500,000 top-up orders in mixed states over 30 days, 20,000 of them on `REPORT_DAY_AGO`
  days ago, and that day's reconciliation report; each order's timeline (placed, charged, and
  the final state) and, for a final order, the provider's callback receipt;
- 200,000 mirrored storage files in 200 folders of one storage service (`BENCH_SERVICE`).

Every row comes from `INSERT ... SELECT ... FROM generate_series`, so no row passes through
Python: a million rows take seconds of the database's time instead of minutes of ours.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta

from django.db import connection
from django.utils import timezone

from console.models import Service, ServiceKind
from sms.services import partitions
from sms.services.partitions import Month
from storage.models import StoredFile, SyncRun

DAYS = 30
CAMPAIGNS = 50
MESSAGES = 1_000_000
BIG_CAMPAIGN = 200_000
ORDERS = 500_000
REPORT_DAY_ORDERS = 20_000
REPORT_DAY_AGO = 3
FILES = 200_000
FOLDERS = 200
CHUNK = 1000
TEMPLATE_PROVIDER_ID = 990_000_017
BENCH_SERVICE = "bench-bucket"  # the storage service every mirrored file belongs to


@dataclass(frozen=True)
class Sizes:
    messages: int
    big_campaign: int
    orders: int
    report_day_orders: int
    files: int

    @classmethod
    def at(cls, scale: float) -> Sizes:
        return cls(
            messages=max(int(MESSAGES * scale), CAMPAIGNS * 10),
            big_campaign=max(int(BIG_CAMPAIGN * scale), 10),
            orders=max(int(ORDERS * scale), 100),
            report_day_orders=max(int(REPORT_DAY_ORDERS * scale), 10),
            files=max(int(FILES * scale), FOLDERS),
        )


def record_mirror_walk() -> None:
    """A completed walk of the bench service's mirror, with its count of files, as the mirror
    job leaves one (the dashboard shows its figures). Added to a kept data set built before
    walks kept their count."""
    service = Service.objects.get(name=BENCH_SERVICE)
    walks = SyncRun.objects.filter(service=service, state=SyncRun.State.COMPLETED)
    if walks.filter(files__isnull=False).exists():
        return
    now = timezone.now()
    files = StoredFile.objects.filter(service=service, kind=StoredFile.Kind.FILE,
                                      deleted_at__isnull=True).count()
    SyncRun.objects.create(service=service, root="/", state=SyncRun.State.COMPLETED,
                           started_at=now, finished_at=now, files=files)


def report_day() -> date:
    return timezone.localdate() - timedelta(days=REPORT_DAY_AGO)


def build(sizes: Sizes) -> None:
    # The months the messages fall in, as the migration makes them for a table with data
    # (a fresh database has this month's onwards only; the rest would go to the default).
    partitions.ensure_months(since=Month.of(timezone.now() - timedelta(days=DAYS)))
    with connection.cursor() as cursor:
        _sms(cursor, sizes)
        _topup(cursor, sizes)
        topup_history(cursor)
        _storage(cursor, sizes)
    # Fresh statistics, as autovacuum would have after a month: plans as in production.
    for table in ("sms_message", "topup_order", "storage_storedfile", "sms_campaign",
                  "topup_orderevent", "topup_callbackreceipt"):
        with connection.cursor() as cursor:
            cursor.execute(f"VACUUM ANALYZE {table}")
    record_mirror_walk()


def _sms(cursor, sizes: Sizes) -> None:  # type: ignore[no-untyped-def]
    now = timezone.now()
    cursor.execute(
        "INSERT INTO sms_template (provider_id, title, temp_sign, content, sign_location, type,"
        " report_type, status, provider_updated_at, synced_at, respect_suppression)"
        " VALUES (%s, '验证码', '示例商城', '您的验证码是{$var1}，5分钟内有效。', 'top',"
        " 'industry', 'general', 'success', %s, %s, false) RETURNING id",
        [TEMPLATE_PROVIDER_ID, now, now],
    )
    template_id = cursor.fetchone()[0]
    rest = sizes.messages - sizes.big_campaign
    per = -(-rest // (CAMPAIGNS - 1))  # ceiling: campaigns 2..50 share the rest
    # Campaign c's messages: ids are consecutive, so a campaign is a range of message numbers.
    cursor.execute(
        "INSERT INTO sms_campaign (id, source, source_name, source_file, encoding, created_at,"
        " confirmed_at, finished_at, state, halt_code, halt_detail, lines_read, skipped_header,"
        " total_numbers, total_units, bad_lines, accepted_count, rejected_count,"
        " cancelled_count, lease_owner, retries, template_id, suppressed_lines, file_is_private)"
        " SELECT c, 'import', 'campaign-' || c || '.csv', '', 'utf-8',"
        "  %(start)s + (c - 1) * interval '14 hours', %(start)s + (c - 1) * interval '14 hours',"
        "  %(start)s + (c - 1) * interval '14 hours', 'done', '', '', n, false, n, n, 0, n, 0,"
        "  0, '', 0, %(template)s, 0, true"
        " FROM (SELECT c, CASE WHEN c = 1 THEN %(big)s"
        "  ELSE greatest(0, least(%(per)s, %(rest)s - (c - 2) * %(per)s)) END AS n"
        "  FROM generate_series(1, %(campaigns)s) AS c) AS sized",
        {
            "start": now - timedelta(days=DAYS),
            "template": template_id,
            "big": sizes.big_campaign,
            "per": per,
            "rest": rest,
            "campaigns": CAMPAIGNS,
        },
    )
    cursor.execute("SELECT setval('sms_campaign_id_seq', %s)", [CAMPAIGNS])
    cursor.execute(
        "INSERT INTO sms_chunk (id, campaign_id, number, size, state)"
        " SELECT c.id * 10000 + k, c.id, k + 1, %(chunk)s, 'done' FROM sms_campaign AS c,"
        " generate_series(0, (c.total_numbers - 1) / %(chunk)s) AS k"
        " WHERE c.total_numbers > 0",
        {"chunk": CHUNK},
    )
    # Message i belongs to campaign c at position p; time grows with i over the 30 days.
    # roll decides the status: ~85% delivered, 8% failed, 4% processing, 1% rejected,
    # 1% queued, 0.5% cancelled, 0.1% a status we do not know.
    cursor.execute(
        """
        INSERT INTO sms_message (id, campaign_id, chunk_id, line_number, mobile, vars, text,
            units, carrier, status, error_code, provider_message_id, created_at, submitted_at,
            sent_at, units_billed, status_changed_at)
        SELECT i, c, c * 10000 + p / %(chunk)s, p + 1, mobile, code,
            '【示例商城】您的验证码是' || code || '，5分钟内有效。', 1,
            CASE WHEN i %% 3 = 0 THEN 'CUCC' WHEN i %% 3 = 1 THEN 'CMCC' ELSE 'CTCC' END,
            status,
            CASE status WHEN 'failed' THEN 'UNDELIV' WHEN 'rejected' THEN '=SUM(A1)' ELSE '' END,
            CASE WHEN status IN ('queued', 'cancelled') THEN NULL ELSE i END,
            at - interval '5 minutes',
            CASE WHEN status IN ('queued', 'cancelled') THEN NULL ELSE at END,
            CASE WHEN status IN ('queued', 'cancelled') THEN NULL ELSE at END,
            CASE WHEN status IN ('success', 'failed') THEN 1 END,
            CASE WHEN status IN ('queued', 'cancelled', 'processing') THEN NULL
                 ELSE at + interval '10 seconds' END
        FROM (
            SELECT i, c, p, roll, mobile, lpad((i * 7919 %% 1000000)::text, 6, '0') AS code,
                %(start)s + (i::float8 / %(n)s) * interval '30 days' AS at,
                CASE WHEN roll < 10 THEN 'queued' WHEN roll < 15 THEN 'cancelled'
                     WHEN roll < 55 THEN 'processing' WHEN roll < 135 THEN 'failed'
                     WHEN roll < 145 THEN 'rejected' WHEN roll < 146 THEN 'EXPIRED'
                     ELSE 'success' END AS status
            FROM (
                SELECT i,
                    CASE WHEN i <= %(big)s THEN 1 ELSE 2 + (i - %(big)s - 1) / %(per)s END AS c,
                    CASE WHEN i <= %(big)s THEN i - 1 ELSE (i - %(big)s - 1) %% %(per)s END AS p,
                    (i * 7919) %% 1000 AS roll,
                    '13' || lpad(((i::bigint * 104729) %% 1000000000)::text, 9, '0') AS mobile
                FROM generate_series(1::bigint, %(n)s) AS i
            ) AS numbered
        ) AS judged
        """,
        {
            "chunk": CHUNK,
            "start": now - timedelta(days=DAYS),
            "n": sizes.messages,
            "big": sizes.big_campaign,
            "per": per,
        },
    )
    cursor.execute("SELECT setval('sms_message_id_seq', %s)", [sizes.messages])
    cursor.execute("SELECT setval('sms_chunk_id_seq', %s)", [(CAMPAIGNS + 1) * 10000])


PRODUCTS = (
    ("CMCC_10", "CMCC", 10, "2.85"),
    ("CMCC_30", "CMCC", 30, "4.75"),
    ("CMCC_100", "CMCC", 100, "9.50"),
    ("CUCC_20", "CUCC", 20, "2.85"),
    ("CUCC_50", "CUCC", 50, "5.70"),
    ("CTCC_10", "CTCC", 10, "1.90"),
    ("CTCC_30", "CTCC", 30, "4.75"),
)


def _topup(cursor, sizes: Sizes) -> None:  # type: ignore[no-untyped-def]
    now = timezone.now()
    for code, carrier, size_mb, price in PRODUCTS:
        cursor.execute(
            "INSERT INTO topup_product (code, carrier, size_mb, price, active, updated_at)"
            " VALUES (%s, %s, %s, %s, true, %s)",
            [code, carrier, size_mb, price, now],
        )
    day_start = timezone.make_aware(
        timezone.datetime.combine(report_day(), timezone.datetime.min.time())
    )
    first_day = timezone.localdate() - timedelta(days=DAYS - 1)
    start = timezone.make_aware(timezone.datetime.combine(first_day, timezone.datetime.min.time()))
    # Orders 1..report_day_orders fall on the report day; the rest spread over the other days.
    cursor.execute(
        """
        INSERT INTO topup_order (custno, mobile, carrier, prodcode, price, prodtime,
            prodstandard, orderno, state, last_code, last_info, charge_code, source,
            idempotency_key, request_fingerprint, charge_attempts, check_attempts,
            not_found_count, next_check_at, created_at, submitted_at, finished_at, updated_at,
            settled_manually, conflict, product_id)
        SELECT to_char(at AT TIME ZONE 'Asia/Shanghai', 'YYYYMMDDHH24MISSUS')
                || lpad(to_hex(i), 8, '0'),
            mobile, product.carrier, product.code, product.price, 1, 7,
            CASE WHEN state = 'created' THEN '' ELSE 'P' || i END, state,
            CASE state WHEN 'success' THEN '0' WHEN 'failed' THEN '430' ELSE '' END,
            '', CASE WHEN state = 'created' THEN '' ELSE '200' END,
            CASE WHEN i %% 5 = 0 THEN 'bulk' WHEN i %% 5 = 1 THEN 'api' ELSE 'single' END,
            '', '', 1, 1, 0,
            CASE WHEN state IN ('success', 'failed', 'manual') THEN NULL
                 ELSE at + interval '1 minute' END,
            at, at + interval '1 second',
            CASE WHEN state IN ('success', 'failed') THEN at + interval '1 minute' END,
            at + interval '1 minute', false, false, product.id
        FROM (
            SELECT i, '15' || lpad(((i::bigint * 104729) %% 1000000000)::text, 9, '0') AS mobile,
                CASE WHEN i <= %(on_day)s
                    THEN %(day_start)s + ((i * 7919) %% 86400) * interval '1 second'
                    ELSE %(start)s + (((i - %(on_day)s)::float8 / %(rest)s) * %(other_days)s
                        + CASE WHEN ((i - %(on_day)s)::float8 / %(rest)s) * %(other_days)s
                            >= %(day_index)s THEN 1 ELSE 0 END) * interval '1 day'
                END AS at,
                CASE WHEN (i * 7919) %% 100 < 70 THEN 'success'
                     WHEN (i * 7919) %% 100 < 85 THEN 'failed'
                     WHEN (i * 7919) %% 100 < 90 THEN 'pending'
                     WHEN (i * 7919) %% 100 < 92 THEN 'unknown'
                     WHEN (i * 7919) %% 100 < 93 THEN 'manual'
                     WHEN (i * 7919) %% 100 < 96 THEN 'submitted'
                     ELSE 'created' END AS state,
                1 + i %% 7 AS product_number
            FROM generate_series(1::bigint, %(n)s) AS i
        ) AS drawn
        JOIN (SELECT row_number() OVER (ORDER BY id) AS number, * FROM topup_product) AS product
            ON product.number = drawn.product_number
        WHERE at < now()
        """,
        {
            "n": sizes.orders,
            "on_day": sizes.report_day_orders,
            "rest": sizes.orders - sizes.report_day_orders,
            "day_start": day_start,
            "start": start,
            "other_days": DAYS - 1,
            "day_index": DAYS - 1 - REPORT_DAY_AGO,
        },
    )
    cursor.execute(
        "INSERT INTO topup_reconciliationreport (day, created_at, order_count, success_count,"
        " failed_count, open_count, queried_count, spent)"
        " SELECT %s, now(), count(*), count(*) FILTER (WHERE state = 'success'),"
        " count(*) FILTER (WHERE state = 'failed'),"
        " count(*) FILTER (WHERE state NOT IN ('success', 'failed')), 0,"
        " coalesce(sum(price) FILTER (WHERE state = 'success'), 0)"
        " FROM topup_order WHERE created_at >= %s AND created_at < %s",
        [report_day(), day_start, day_start + timedelta(days=1)],
    )


def topup_history(cursor) -> None:  # type: ignore[no-untyped-def]
    """Every order's timeline (placed; charged unless still `created`; its final state) and one
    applied callback receipt per final order, as the callback endpoint would have stored it."""
    cursor.execute(
        """
        INSERT INTO topup_orderevent (order_id, at, kind, from_state, to_state, code, info,
            message, params)
        SELECT o.id, o.created_at, 'created', '', 'created', '', '', 'Order placed.', '{}'
        FROM topup_order o
        UNION ALL
        SELECT o.id, o.submitted_at, 'charge', 'created', 'submitted', o.charge_code, '',
            'chargeOrder answered code %(code)s.', jsonb_build_object('code', o.charge_code)
        FROM topup_order o WHERE o.state <> 'created'
        """
    )
    cursor.execute(
        """
        INSERT INTO topup_callbackreceipt (received_at, remote_addr, headers, body, body_size,
            sign_valid, signed_with, custno, orderno, code, info, processed, processed_at,
            outcome, unknown_custno, error, replays, order_id)
        SELECT o.finished_at, '127.0.0.1', '{"Content-Type": "application/json"}',
            convert_to(json_build_object('custno', o.custno, 'orderno', o.orderno,
                                         'code', o.last_code, 'info', '')::text, 'UTF8'),
            120, true, 'current', o.custno, o.orderno, o.last_code, '', true, o.finished_at,
            'applied', false, '', 0, o.id
        FROM topup_order o WHERE o.state IN ('success', 'failed')
        """
    )
    cursor.execute(
        """
        INSERT INTO topup_orderevent (order_id, at, kind, from_state, to_state, code, info,
            message, params, receipt_id)
        SELECT r.order_id, r.received_at, 'callback', 'submitted', o.state, r.code, '',
            'The provider confirmed the top-up.', '{}', r.id
        FROM topup_callbackreceipt r JOIN topup_order o ON o.id = r.order_id
        """
    )


def _storage(cursor, sizes: Sizes) -> None:  # type: ignore[no-untyped-def]
    now = timezone.now()
    service = Service.objects.create(name=BENCH_SERVICE, kind=ServiceKind.STORAGE)
    cursor.execute(
        "INSERT INTO storage_storedfile (path, parent, name, kind, size, modified_at, md5,"
        " content_type, metadata, last_seen, service_id)"
        " SELECT '/bench/f' || f, '/bench', 'f' || f, 'folder', 0, NULL, '', '', '{}', %(now)s,"
        "  %(service)s"
        " FROM generate_series(1, %(folders)s) AS f",
        {"now": now, "folders": FOLDERS, "service": service.pk},
    )
    cursor.execute(
        "INSERT INTO storage_storedfile (path, parent, name, kind, size, modified_at, md5,"
        " content_type, metadata, last_seen, service_id)"
        " SELECT '/bench/f' || (i %% %(folders)s + 1) || '/photo-' || i || '.jpg',"
        "  '/bench/f' || (i %% %(folders)s + 1), 'photo-' || i || '.jpg', 'file',"
        "  1000 + i, %(now)s - (i %% 1000) * interval '1 hour', md5(i::text), 'image/jpeg',"
        "  '{}', %(now)s, %(service)s"
        " FROM generate_series(1, %(files)s) AS i",
        {"now": now, "folders": FOLDERS, "files": sizes.files, "service": service.pk},
    )
