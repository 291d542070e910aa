"""SMS use cases: the one place where the provider client and our records meet.

Pages, tasks, commands and other apps import from here; each concern has its own module:
`template_ops` (templates and quota), `importing` (judging import files and typed numbers),
`suppression` (the suppression list: numbers set aside before anything is sent, and its
pages' use cases), `campaign_store` (an import or the send page's recipients -> rows),
`lifecycle` (confirm, schedule, cancel, resume, clean-up), `campaigns` (chunked sending and
reconciliation), `campaign_lease` (one run at a time, and the sweep of stalled runs),
`reports` (the delivery report sync), `scheduling` (start times and the marketing sending
window), `search` and `csv_copy` (the delivery report page and its CSV), `counts` (messages by
status, today's figures and the dashboard's per-day sends), `progress` (a campaign's sending
and delivery figures) and `connection` (the configured client). The client's error types are
re-exported so that pages can tell a refusal from a failure without importing the client.
"""

from backoffice.operations.provider import ProviderNotConfigured
from sms.client import MAX_NUMBERS_PER_SEND
from sms.errors import SmsApiError, SmsError, SmsTransportError
from sms.services.campaign_store import CHUNK_SIZE, store_import, store_recipients, store_upload
from sms.services.campaigns import RunOutcome, run_campaign
from sms.services.connection import latest_quota, sms_client
from sms.services.counts import messages_by_status, sent_per_day
from sms.services.importing import BadLine, ImportFileError
from sms.services.kept_files import secure_kept_files
from sms.services.lifecycle import (
    MAX_FORM_RECIPIENTS,
    CampaignStateError,
    RecipientsPreview,
    WindowOverrideNotAllowed,
    cancel_campaign,
    confirm_campaign,
    discard_campaign,
    discard_stale_drafts,
    drop_draft,
    enqueue_campaign,
    next_scheduled_campaign,
    preview_recipients,
    redraft_recipients,
    reschedule_campaign,
    resume_campaign,
    resume_stalled_campaigns,
    same_recipients,
    send_draft,
    send_recipients,
    start_due_campaigns,
    today_figures,
)
from sms.services.partitions import ensure_months as ensure_message_months
from sms.services.progress import (
    CampaignCounts,
    campaign_counts,
    polled_campaign_counts,
    recently_sent_elsewhere,
    recently_sent_numbers,
)
from sms.services.report_totals import StatusTotal, status_totals
from sms.services.report_totals import recount_if_due as recount_report_totals
from sms.services.reports import MAX_PAGES as REPORT_MAX_PAGES
from sms.services.reports import ReportSync, sync_reports
from sms.services.retention import (
    RetentionRun,
    archive_old_months,
    kept_from,
    open_archive,
)
from sms.services.retention import (
    archives as message_archives,
)
from sms.services.review_time import ReviewTime, expected_review
from sms.services.scheduling import (
    StartTimeError,
    check_start_time,
    first_send_at,
    marketing_window,
    parse_start_time,
)
from sms.services.search import UNKNOWN_STATUS
from sms.services.search import Filters as ReportFilters
from sms.services.search import csv_bytes as report_csv_bytes
from sms.services.search import page as report_page
from sms.services.status_counts import fold as fold_campaign_status_counts
from sms.services.suppression import (
    NOTE_MAX_LENGTH,
    SuppressionError,
    add_invalid_numbers,
    add_number,
    check_import,
    confirm_import,
    discard_import,
    invalid_numbers_count,
    normalise,
    remove_number,
    suppressed_total,
)
from sms.services.suppression import export_lines as suppressed_export_lines
from sms.services.suppression import problem_rows as suppression_problem_rows
from sms.services.suppression import search as search_suppressed
from sms.services.suppression import waiting_imports as waiting_suppression_imports
from sms.services.template_ops import (
    EditOutcome,
    TemplateProblems,
    TemplateSync,
    create_template,
    delete_template,
    draft_of,
    edit_template,
    refresh_quota,
    send_blockers,
    set_respect_suppression,
    sync_templates,
    sync_templates_and_quota,
)
from sms.services.words import (
    MAX_WORD_LENGTH,
    WordLineProblem,
    add_words,
    blocked_word_in,
    parse_word_lines,
    remove_word,
)

__all__ = [
    "CHUNK_SIZE",
    "REPORT_MAX_PAGES",
    "NOTE_MAX_LENGTH",
    "normalise",
    "search_suppressed",
    "suppressed_export_lines",
    "suppression_problem_rows",
    "waiting_suppression_imports",
    "BadLine",
    "ImportFileError",
    "ReportFilters",
    "StatusTotal",
    "report_page",
    "status_totals",
    "fold_campaign_status_counts",
    "recount_report_totals",
    "report_csv_bytes",
    "UNKNOWN_STATUS",
    "MAX_FORM_RECIPIENTS",
    "MAX_NUMBERS_PER_SEND",
    "CampaignCounts",
    "CampaignStateError",
    "ProviderNotConfigured",
    "RecipientsPreview",
    "ReportSync",
    "RunOutcome",
    "SmsApiError",
    "SmsError",
    "SmsTransportError",
    "StartTimeError",
    "SuppressionError",
    "TemplateProblems",
    "TemplateSync",
    "WindowOverrideNotAllowed",
    "add_invalid_numbers",
    "add_number",
    "campaign_counts",
    "cancel_campaign",
    "check_import",
    "check_start_time",
    "confirm_campaign",
    "confirm_import",
    "create_template",
    "delete_template",
    "discard_campaign",
    "discard_import",
    "discard_stale_drafts",
    "secure_kept_files",
    "draft_of",
    "drop_draft",
    "EditOutcome",
    "MAX_WORD_LENGTH", "WordLineProblem", "add_words", "blocked_word_in", "parse_word_lines",
    "remove_word",
    "ReviewTime", "expected_review",
    "edit_template",
    "enqueue_campaign",
    "invalid_numbers_count",
    "latest_quota",
    "marketing_window",
    "first_send_at",
    "messages_by_status",
    "next_scheduled_campaign",
    "parse_start_time",
    "polled_campaign_counts",
    "preview_recipients",
    "recently_sent_elsewhere",
    "recently_sent_numbers",
    "redraft_recipients",
    "refresh_quota",
    "remove_number",
    "reschedule_campaign",
    "resume_campaign",
    "resume_stalled_campaigns",
    "run_campaign",
    "same_recipients",
    "send_blockers",
    "send_draft",
    "send_recipients",
    "sent_per_day",
    "set_respect_suppression",
    "sms_client",
    "start_due_campaigns",
    "store_import",
    "store_recipients",
    "store_upload",
    "suppressed_total",
    "sync_reports",
    "sync_templates",
    "sync_templates_and_quota",
    "today_figures",
    "ensure_message_months",
    "RetentionRun",
    "archive_old_months",
    "kept_from",
    "message_archives",
    "open_archive",
]
