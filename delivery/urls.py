from django.urls import path

from delivery.views import (
    config,
    domain,
    edge_access,
    https,
    images,
    links,
    publish,
    purge,
    refresh,
    refusal,
    rulesets,
)
from delivery.views.home import DeliveryHomeView
from delivery.views.security import security_page

app_name = "delivery"

urlpatterns = [
    path("", DeliveryHomeView.as_view(), name="index"),
    path("links/", links.link_builder, name="links"),
    path("images/", images.image_builder, name="images"),
    path("images/preview", images.image_preview, name="image_preview"),
    path("rules/", rulesets.rule_set_list, name="ruleset_list"),
    path("rules/new/", rulesets.rule_set_edit, name="ruleset_new"),
    path("rules/<int:pk>/", rulesets.rule_set_edit, name="ruleset_edit"),
    path("rules/<int:pk>/delete/", rulesets.rule_set_delete, name="ruleset_delete"),
    path("rules/lint", rulesets.lint_endpoint, name="lint"),
    path("rules/test", rulesets.test_endpoint, name="test"),
    path("settings/", config.settings_page, name="settings"),
    path("why/", refusal.refusal_tester, name="refusal_tester"),
    path("https/", https.https_page, name="https"),
    path("access/", edge_access.access_page, name="access"),
    path("security/", security_page, name="security"),
    path("publish/", publish.publish_page, name="publish"),
    path("publish/now", publish.publish_now, name="publish_now"),
    path("publish/<int:pk>/retry", publish.publish_retry, name="publish_retry"),
    path("domain", domain.choose_domain, name="choose_domain"),
    path("purge/", purge.purge_page, name="purge"),
    path("refresh/", refresh.rule_refresh, name="refresh_rule"),
    path("refresh/preheat/", refresh.url_preheat, name="refresh_preheat"),
    path("refresh/site/", refresh.site_refresh, name="refresh_site"),
]
