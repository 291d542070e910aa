from django.urls import path

from sms.views import campaigns, home, report, sending, suppression, templates, words

app_name = "sms"

urlpatterns = [
    path("", home.index, name="index"),
    path("templates/", templates.template_list, name="templates"),
    path("words/", words.word_list, name="words"),
    path("words/<int:pk>/remove/", words.word_remove, name="word_remove"),
    path("templates/new/", templates.template_create, name="template_create"),
    path("templates/check/", templates.template_check, name="template_check"),
    path("templates/sync/", templates.template_sync, name="template_sync"),
    path("templates/<int:pk>/edit/", templates.template_edit, name="template_edit"),
    path("templates/<int:pk>/delete/", templates.template_delete, name="template_delete"),
    path("send/", sending.send, name="send"),
    path("import/", sending.import_file, name="import"),
    path("campaigns/", campaigns.campaign_list, name="campaigns"),
    path("campaigns/<int:pk>/", campaigns.campaign_detail, name="campaign"),
    path("campaigns/<int:pk>/progress/", campaigns.campaign_progress, name="campaign_progress"),
    path(
        "campaigns/<int:pk>/bad-lines.csv",
        campaigns.campaign_problems_csv,
        name="campaign_problems_csv",
    ),
    path("campaigns/<int:pk>/confirm/", campaigns.campaign_confirm, name="campaign_confirm"),
    path(
        "campaigns/<int:pk>/reschedule/", campaigns.campaign_reschedule, name="campaign_reschedule"
    ),
    path("campaigns/<int:pk>/discard/", campaigns.campaign_discard, name="campaign_discard"),
    path("campaigns/<int:pk>/cancel/", campaigns.campaign_cancel, name="campaign_cancel"),
    path("campaigns/<int:pk>/resume/", campaigns.campaign_resume, name="campaign_resume"),
    path(
        "campaigns/<int:pk>/suppress-invalid/",
        suppression.campaign_suppress_invalid,
        name="campaign_suppress_invalid",
    ),
    path(
        "templates/<int:pk>/suppression/",
        suppression.template_respect_suppression,
        name="template_respect_suppression",
    ),
    path("suppression/", suppression.suppression_list, name="suppression"),
    path("suppression/export.csv", suppression.suppression_csv, name="suppression_csv"),
    path("suppression/add/", suppression.suppression_add, name="suppression_add"),
    path("suppression/import/", suppression.suppression_import, name="suppression_import"),
    path(
        "suppression/import/<int:pk>/",
        suppression.suppression_import_check,
        name="suppression_import_check",
    ),
    path(
        "suppression/import/<int:pk>/confirm/",
        suppression.suppression_import_confirm,
        name="suppression_import_confirm",
    ),
    path(
        "suppression/import/<int:pk>/discard/",
        suppression.suppression_import_discard,
        name="suppression_import_discard",
    ),
    path(
        "suppression/<int:pk>/remove/",
        suppression.suppression_remove,
        name="suppression_remove",
    ),
    path("report/", report.report, name="report"),
    path("report/export.csv", report.report_csv, name="report_csv"),
    path("report/archive/<int:pk>.csv", report.report_archive, name="report_archive"),
    path("report/sync/", report.report_sync, name="report_sync"),
]
