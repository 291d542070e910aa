from django.urls import path

from console.views import services

app_name = "console"

urlpatterns = [
    path("", services.service_list, name="index"),
    path("refresh/", services.refresh, name="refresh"),
    path("new/", services.service_form, name="new"),
    path("<int:pk>/", services.service_detail, name="service"),
    path("<int:pk>/edit/", services.service_form, name="edit"),
    path("<int:pk>/remove/", services.service_remove, name="remove"),
    path("<int:pk>/origins/", services.origin_add, name="origin_add"),
    path("<int:pk>/origins/publish/", services.origins_publish, name="origins_publish"),
    path("<int:pk>/origins/<int:origin_pk>/remove/", services.origin_remove,
         name="origin_remove"),
    path("<int:pk>/domains/", services.domain_add, name="domain_add"),
    path("<int:pk>/domains/<int:domain_pk>/remove/", services.domain_remove,
         name="domain_remove"),
    path("<int:pk>/domains/<int:domain_pk>/publish/", services.domain_publish,
         name="domain_publish"),
    path("<int:pk>/mirror/publish/", services.mirror_publish, name="mirror_publish"),
    path("<int:pk>/mirror/<str:to>/", services.mirror_move, name="mirror_move"),
]
