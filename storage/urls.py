from django.urls import path

from storage import file_views, upload_views, views

app_name = "storage"

urlpatterns = [
    path("", views.browser, name="index"),
    path("folders/", views.create_folder, name="create_folder"),
    path("delete/", views.delete, name="delete"),
    path("mirror/", views.mirror_now, name="mirror_now"),
    path("file/", file_views.file_detail, name="file"),
    path("file/metadata/", file_views.edit_metadata, name="edit_metadata"),
    path("file/secret/", file_views.edit_secret, name="edit_secret"),
    path("download/", file_views.download, name="download"),
    path("preview/", file_views.preview, name="preview"),
    path("uploads/", upload_views.upload_list, name="uploads"),
    path("uploads/check/", upload_views.upload_check, name="upload_check"),
    path("uploads/new/", upload_views.upload_create, name="upload_create"),
    path("uploads/<int:pk>/", upload_views.upload_status, name="upload_status"),
    path("uploads/<int:pk>/resume/", upload_views.upload_resume, name="upload_resume"),
    path("uploads/<int:pk>/cancel/", upload_views.upload_cancel, name="upload_cancel"),
]
