"""In a real browser, in English and in Chinese, the pages that show records (a campaign, a
template, a media job, a stored file, a top-up order and batch, a service with its domains) at
1280, 1024 and 768 px wide (issue 29, finding 19), with records made for the test: the page
never scrolls sideways, the top bar keeps one row, no row shows two actions side by side (a
second one, a delete among them, is folded into the row's "More" menu), file names stay
whole on one line, and no button is left in the browser's own grey."""

from __future__ import annotations

import io

import pytest

from tests.foundation.test_layout_widths_browser import MEASURE, WIDTHS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LONG_NAME = "a-rather-long-file-name-for-a-narrow-screen-2024.mp4"
# Buttons left in the browser's own grey (ButtonFace): a page that forgot to style them.
PLAIN_BUTTONS = """() => [...document.querySelectorAll('main button, .content button')]
    .filter(e => e.checkVisibility() && e.closest('details:not([open])') === null)
    .filter(e => getComputedStyle(e).backgroundColor === 'rgb(239, 239, 239)')
    .map(e => e.textContent.trim())"""
# Per row: the actions a person sees without opening anything (buttons, and links that delete
# or remove), and names broken in two. Inside a closed menu nothing shows.
ROWS = """() => {
  const shown = e => e.checkVisibility() && e.closest('details:not([open])') === null;
  return [...document.querySelectorAll('tr')].map(row => ({
    row: row.outerHTML.slice(0, 80),
    actions: [...row.querySelectorAll('button, a[href*="delete"], a[href*="remove"]')]
        .filter(shown).length,
    broken: [...row.querySelectorAll('td.name a, .media-path')]
        .filter(e => e.getClientRects().length > 1).length,
  }));
}"""


def make_records(page, live_server, user, provider) -> list[str]:
    """Records of every kind a page shows, made through the apps' own services and pages."""
    from console.models import Domain
    from console.services import default_service
    from media.models import JobKind, JobState, ProcessingJob
    from sms import rules
    from sms import services as sms_services
    from storage.services.connection import storage_client
    from tests.sms.conftest import DRAFTS, preview_on_the_send_page, review
    from topup import services as topup_services
    from topup.demo import load_products
    from topup.models import BulkBatch, OrderSource

    page.goto(f"{live_server.url}/storage/")  # the environment's service gets its record
    service = default_service()
    storage_client(service).upload(f"/{LONG_NAME}", io.BytesIO(b"x" * 10))
    Domain.objects.create(service=service, name="waiting.example.com",
                          publish_state="failed", publish_error="refused by the provider")
    template = review(provider, sms_services.create_template(
        rules.TemplateDraft(**DRAFTS["code"])))
    preview_on_the_send_page(page, live_server, template)
    from sms.models import Campaign

    campaign = Campaign.objects.get()
    job = ProcessingJob.objects.create(service=service, kind=JobKind.MEDIA_INFO,
                                       state=JobState.FAILED, sources=[f"/{LONG_NAME}"],
                                       save_as=f"/out/{LONG_NAME}", requested_by=user)
    load_products()
    order = topup_services.place_order(
        topup_services.OrderRequest(mobile="13800138000", product_code="CMCC_10"),
        requested_by=user, source=OrderSource.SINGLE)
    batch = BulkBatch.objects.create(file_name=f"{LONG_NAME}.csv", uploaded_by=user)
    return [
        f"/sms/campaigns/{campaign.pk}/", "/sms/campaigns/", "/sms/templates/",
        f"/sms/templates/{template.pk}/edit/", "/sms/words/",
        f"/media/jobs/{job.pk}/", "/media/jobs/", "/media/",
        f"/storage/file/?service={service.name}&path=/{LONG_NAME}", "/storage/",
        f"/topup/orders/{order.custno}/", "/topup/orders/", f"/topup/bulk/{batch.pk}/",
        f"/services/{service.pk}/", "/services/", "/services/new/", "/accounts/profile/",
    ]


@pytest.mark.parametrize("language", ["en", "zh-hans"])
def test_pages_with_records_fit_each_width_and_fold_row_actions(
        page, live_server, staff_login, provider, language):
    user = staff_login("root", superuser=True)
    page.context.add_cookies([{"name": "django_language", "value": language,
                               "url": live_server.url}])
    paths = make_records(page, live_server, user, provider)
    problems = []
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": 900})
        for path in paths:
            answer = page.goto(f"{live_server.url}{path}")
            assert answer is not None and answer.status == 200, path
            found = page.evaluate(MEASURE)
            if found["page"] > 0:
                problems.append(f"{width}px {path}: scrolls sideways by {found['page']}px")
            if max(found["barItems"]) - min(found["barItems"]) > 8:
                problems.append(f"{width}px {path}: the top bar takes more than one row")
            plain = page.evaluate(PLAIN_BUTTONS)
            if plain:
                problems.append(f"{width}px {path}: buttons in the browser's grey: {plain}")
            for row in page.evaluate(ROWS):
                if row["actions"] > 1:
                    problems.append(f"{width}px {path}: {row['actions']} actions side by side "
                                    f"in {row['row']}")
                if row["broken"]:
                    problems.append(f"{width}px {path}: a name broken in {row['row']}")
    assert problems == []
