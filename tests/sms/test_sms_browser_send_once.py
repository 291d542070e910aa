"""In a real browser: a double click on "Send" while the provider is slow sends once, and the
button is disabled as soon as the form is on its way."""

from __future__ import annotations

import pytest

from sms.models import Campaign, CampaignState
from tests.sms.conftest import provider_report


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_double_click_on_send_sends_once(page, live_server, staff_login, provider, sms_template):
    template = sms_template()
    # Every send is answered 2 s after the provider has carried it out: the page waits.
    provider.add_fault(
        service="sms",
        path="^/api/messages$",
        method="POST",
        action="delay",
        delay_ms=2000,
        when="after",
    )
    staff_login("operator", groups=("SMS operators",))

    page.goto(f"{live_server.url}/sms/send/")
    page.select_option("#id_template", str(template.pk))
    page.fill("#id_recipients", "13800138000\n13900139000")
    page.fill("#id_var1", "123456")
    page.click("#preview")
    page.wait_for_selector("#send")

    posts: list[str] = []
    page.on(
        "request",
        lambda request: posts.append(request.post_data or "") if request.method == "POST" else None,
    )
    # Two clicks in a row, as an impatient double click: the page is still waiting for the
    # first answer (2 s) when the buttons are looked at.
    disabled = page.evaluate(
        """() => new Promise((resolve) => {
            const send = document.getElementById("send");
            send.click();
            send.click();
            setTimeout(() => resolve({
                send: send.disabled,
                preview: document.getElementById("preview").disabled,
            }), 100);
        })"""
    )

    assert disabled == {"send": True, "preview": True}
    page.wait_for_url(f"{live_server.url}/sms/campaigns/*/", timeout=30_000)
    assert len(posts) == 1 and "send=1" in posts[0]

    campaign = Campaign.objects.get()
    assert campaign.state == CampaignState.DONE
    assert sorted(record["mobile"] for record in provider_report(provider)) == [
        "13800138000",
        "13900139000",
    ]
