from django.urls import path

from storage.views import direct, files, folders, transfers, uploads

app_name = "storage"

urlpatterns = [
    path("", folders.browser, name="index"),
    path("folders/", folders.create_folder, name="create_folder"),
    path("delete/", folders.delete, name="delete"),
    path("delete/selected/", folders.delete_selected, name="delete_selected"),
    path("folder-deletions/<int:pk>/", folders.folder_deletion, name="folder_deletion"),
    path("transfer/", transfers.transfer, name="transfer"),
    path("folder-transfers/<int:pk>/", transfers.folder_transfer, name="folder_transfer"),
    path("mirror/", folders.mirror_now, name="mirror_now"),
    path("file/", files.file_detail, name="file"),
    path("file/metadata/", files.edit_metadata, name="edit_metadata"),
    path("file/secret/", files.edit_secret, name="edit_secret"),
    path("download/", files.download, name="download"),
    path("preview/", files.preview, name="preview"),
    path("uploads/", uploads.upload_list, name="uploads"),
    path("uploads/check/", uploads.upload_check, name="upload_check"),
    path("uploads/new/", uploads.upload_create, name="upload_create"),
    path("uploads/<int:pk>/", uploads.upload_status, name="upload_status"),
    path("uploads/<int:pk>/parts/<int:part_id>/", uploads.upload_part, name="upload_part"),
    path("uploads/<int:pk>/sign/", direct.upload_sign, name="upload_sign"),
    path("uploads/<int:pk>/report/", direct.upload_report, name="upload_report"),
    path("uploads/<int:pk>/resume/", uploads.upload_resume, name="upload_resume"),
    path("uploads/<int:pk>/cancel/", uploads.upload_cancel, name="upload_cancel"),
]
