from django.urls import include, path

from sandbox.core import control

urlpatterns = [
    path("health", control.health),
    path("clock", control.clock_now),
    path("clock/advance", control.clock_advance),
    path("faults", control.faults),
    path("reset", control.reset),
    path("sms/", include("sandbox.sms.control_urls")),
    path("topup/", include("sandbox.topup.control_urls")),
    path("storage/", include("sandbox.storage.control_urls")),
    path("media/", include("sandbox.media.control_urls")),
    path("delivery/", include("sandbox.delivery.control_urls")),
    path("purge/", include("sandbox.purge.control_urls")),
    path("console/", include("sandbox.consoleapi.control_urls")),
]

handler404 = "sandbox.core.errors.not_found"
handler500 = "sandbox.core.errors.server_error"
