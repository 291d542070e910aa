from django.urls import path

from media.views import home, jobs, tools

app_name = "media"

urlpatterns = [
    path("", home.MediaHomeView.as_view(), name="index"),
    path("jobs/", jobs.job_list, name="job_list"),
    path("jobs/<int:pk>/", jobs.job_detail, name="job_detail"),
    path("jobs/<int:pk>/image/", jobs.job_image, name="job_image"),
    path("info/", tools.info, name="info"),
    path("snapshot/", tools.snapshot, name="snapshot"),
    path("clip/", tools.clip, name="clip"),
    path("concat/", tools.concat, name="concat"),
]
