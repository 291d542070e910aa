"""Object storage use cases: the one place where the provider client and our records meet.

Pages, tasks, commands and other apps call these names; the work lives in small modules:
`files` (folders, delete, details, metadata, secret, download, usage), `uploads` (upload tasks:
create, run, resume), `upload_housekeeping` (recovering stalled uploads, removing orphan
copies), `browser_uploads` (a browser's upload, part by part through any web node),
`browsing` (a page of a folder), `transfers` and `folder_transfer` (copy, move and rename),
`folder_jobs` (the sweep of folder jobs, over `job_lease` and `job_purge`),
`mirror` (the StoredFile mirror and its sync) and `extensions`
(signals and file actions for other apps; see its docstring for the contracts).
`StorageError` (any refusal or failure of the provider) and its `NotFound` are exported too, so
that other apps can tell "not there" from a real failure.
"""

from __future__ import annotations

from storage.client import (
    FolderExists,
    ListItem,
    NotFound,
    RetryPolicy,
    StorageClient,
    StorageError,
    StorageProtocolError,
)
from storage.services.browser_uploads import (
    PartRefused,
    part_length,
    receive_part,
    start_browser_upload,
)
from storage.services.browsing import (
    DEFAULT_PAGE_SIZE,
    PAGE_SIZES,
    PREVIEW_MAX_BYTES,
    PREVIEW_TYPES,
    Entry,
    FolderPage,
    SearchPage,
    Target,
    breadcrumbs,
    is_file,
    is_previewable,
    probe_targets,
    read_page,
    search_page,
)
from storage.services.connection import mirrored_services, storage_client
from storage.services.counts import uploads_by_state
from storage.services.details import FileDetails
from storage.services.direct_reconcile import cancel_provider_task, reconcile_direct_uploads
from storage.services.direct_uploads import (
    SignedRequest,
    body_text,
    browser_part_size,
    finish_upload,
    goes_direct,
    ids_text,
    parts_in_flight,
    report_failure,
    report_progress,
    sign_form,
    sign_stage,
    signature_lifetime_s,
    start_direct_upload,
    storage_origins,
    uuid_text,
)
from storage.services.direct_uploads import part_count as direct_part_count
from storage.services.extensions import (
    FileAction,
    file_actions_for,
    file_deleted,
    file_metadata_changed,
    file_replaced,
    file_uploaded,
    files_deleted,
    files_replaced,
    register_file_action,
    registered_file_actions,
    unregister_file_action,
)
from storage.services.file_storage import BucketStorage
from storage.services.files import (
    DeleteOutcome,
    Download,
    bucket_usage,
    change_metadata,
    create_folder,
    delete_entries,
    delete_file,
    file_details,
    open_download,
    remove_folder,
    remove_secret,
    set_secret,
    usage_per_day,
)
from storage.services.folder_deletion import (
    TreeCount,
    count_tree,
    run_folder_deletion,
    start_folder_deletion,
)
from storage.services.folder_jobs import resume_folder_jobs
from storage.services.folder_transfer import (
    failure_error,
    run_folder_transfer,
    start_folder_transfer,
)
from storage.services.form_uploads import FormGrant, sign_form_upload
from storage.services.mirror import DETAILS_PER_RUN, refresh_mirror, sync_tree
from storage.services.operator_check import operator_verdict
from storage.services.private import PrivatePath, is_private, refuse_private
from storage.services.signature_refusals import SignatureRefused
from storage.services.transfers import (
    TRANSFER_KINDS,
    Plan,
    TargetExists,
    TransferKind,
    TransferRefused,
    plan_transfer,
    renamed,
    transfer_file,
)
from storage.services.upload_housekeeping import recover_stalled_uploads, remove_orphan_copies
from storage.services.uploads import (
    MAX_UPLOAD_BYTES,
    UploadOptions,
    can_cancel,
    cancel_upload,
    create_upload,
    enqueue_upload,
    goes_resumable,
    local_file_upload,
    resumable_threshold,
    resume_upload,
    run_upload,
    upload_dir,
)
from storage.texts import bytes_text, size_text, size_texts

__all__ = [
    "sign_form_upload",
    "BucketStorage",
    "MAX_UPLOAD_BYTES",
    "DETAILS_PER_RUN",
    "DEFAULT_PAGE_SIZE",
    "PAGE_SIZES",
    "PREVIEW_MAX_BYTES",
    "PREVIEW_TYPES",
    "Entry",
    "bytes_text",
    "size_text",
    "size_texts",
    "uploads_by_state",
    "DeleteOutcome",
    "Download",
    "FileAction",
    "FileDetails",
    "FormGrant",
    "FolderExists",
    "FolderPage",
    "SearchPage",
    "ListItem",
    "NotFound",
    "PartRefused",
    "PrivatePath",
    "RetryPolicy",
    "StorageClient",
    "StorageError",
    "StorageProtocolError",
    "Target",
    "UploadOptions",
    "breadcrumbs",
    "mirrored_services",
    "bucket_usage",
    "usage_per_day",
    "can_cancel",
    "cancel_upload",
    "change_metadata",
    "create_folder",
    "create_upload",
    "delete_entries",
    "delete_file",
    "enqueue_upload",
    "file_actions_for",
    "file_deleted",
    "file_details",
    "file_metadata_changed",
    "file_replaced",
    "files_deleted",
    "files_replaced",
    "file_uploaded",
    "goes_resumable",
    "is_file",
    "is_private",
    "is_previewable",
    "local_file_upload",
    "open_download",
    "operator_verdict",
    "part_length",
    "probe_targets",
    "read_page",
    "receive_part",
    "recover_stalled_uploads",
    "resume_folder_jobs",
    "refresh_mirror",
    "TreeCount", "count_tree", "run_folder_deletion", "start_folder_deletion",
    "TRANSFER_KINDS", "Plan", "TargetExists", "TransferKind", "TransferRefused",
    "plan_transfer", "renamed", "transfer_file", "failure_error", "run_folder_transfer",
    "start_folder_transfer",
    "refuse_private",
    "register_file_action",
    "registered_file_actions",
    "remove_folder",
    "remove_orphan_copies",
    "remove_secret",
    "resumable_threshold",
    "resume_upload",
    "run_upload",
    "search_page",
    "set_secret",
    "start_browser_upload",
    "start_direct_upload",
    "cancel_provider_task",
    "reconcile_direct_uploads",
    "goes_direct",
    "SignatureRefused",
    "SignedRequest",
    "body_text",
    "finish_upload",
    "ids_text",
    "report_failure",
    "report_progress",
    "sign_form",
    "sign_stage",
    "signature_lifetime_s",
    "signature_lifetime_s",
    "uuid_text",
    "storage_origins",
    "browser_part_size",
    "parts_in_flight",
    "direct_part_count",
    "storage_client",
    "sync_tree",
    "unregister_file_action",
    "upload_dir",
]
