"""Two-factor sign-in: enrolment from the profile page (QR code, secret, confirmation code,
ten recovery codes shown once); a sign-in asks the enrolled for a code on every way in;
REQUIRE_2FA makes enrolment compulsory; wrong codes count toward the lockout; the demo user
of `make run` is not enrolled."""

from __future__ import annotations

import pytest
from django.core.management import call_command
from django.test import Client
from django_otp.oath import totp

from backoffice.models import AuditEntry, RecoveryCode
from backoffice.models import SealedTOTPDevice as TOTPDevice
from backoffice.otp_keys import code_digest
from backoffice.security import otp

pytestmark = pytest.mark.django_db

PASSWORD = "Right-pass-2468!"


def code_for(device: TOTPDevice, steps_ahead: int = 0) -> str:
    return f"{totp(device.bin_key, t0=device.t0, step=device.step, drift=steps_ahead):06d}"


@pytest.fixture
def ann(make_user):
    user = make_user("ann", "SMS operators")
    user.set_password(PASSWORD)
    user.save()
    return user


def enrol(client: Client) -> tuple[TOTPDevice, list[str]]:
    page = client.get("/accounts/profile/")
    assert page.status_code == 200
    device = TOTPDevice.objects.get(confirmed=False)
    done = client.post("/accounts/profile/", {"code": code_for(device), "password": PASSWORD})
    assert done.status_code == 200
    device.refresh_from_db()
    return device, done.context["codes"]


def sign_in(address: str = "10.0.0.1") -> Client:
    client = Client(REMOTE_ADDR=address)
    response = client.post("/accounts/login/", {"username": "ann", "password": PASSWORD})
    assert response.status_code == 302
    return client


def _forced(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_the_profile_page_shows_a_qr_code_and_the_secret(ann):
    client = Client()
    client.force_login(ann)
    page = client.get("/accounts/profile/").content.decode()
    device = TOTPDevice.objects.get(user=ann, confirmed=False)
    assert "<svg" in page
    assert otp.secret_of(device) in page
    # The same secret until it is confirmed: a reload does not invalidate the scanned code.
    client.get("/accounts/profile/")
    assert TOTPDevice.objects.filter(user=ann).count() == 1


def test_enrolment_confirmed_with_a_code_gives_ten_recovery_codes_shown_once(ann):
    client = Client()
    client.force_login(ann)
    device, codes = enrol(client)
    assert device.confirmed and len(codes) == 10 and len(set(codes)) == 10
    assert set(RecoveryCode.objects.values_list("digest", flat=True)) == {
        code_digest(code) for code in codes}
    later = client.get("/accounts/profile/").content.decode()
    assert not any(code in later for code in codes)
    assert AuditEntry.objects.filter(action="2fa.enrol", outcome="ok").exists()


def test_a_wrong_confirmation_code_is_named_and_enrols_nothing(ann):
    client = Client()
    client.force_login(ann)
    client.get("/accounts/profile/")
    response = client.post("/accounts/profile/", {"code": "000000", "password": PASSWORD})
    assert response.status_code == 400
    assert "code" in response.context["form"].errors
    assert not otp.is_enrolled(ann)


def test_an_enrolled_person_needs_a_code_after_the_password(ann):
    device, _codes = enrol(_forced(ann))
    client = sign_in()
    held = client.get("/sms/")
    assert held.status_code == 302 and held["Location"].startswith("/accounts/login/code/")
    assert client.get("/api/topup/orders/X/").status_code == 403

    response = client.post("/accounts/login/code/", {"code": code_for(device, 1),
                                                      "next": "/sms/"})
    assert response.status_code == 302 and response["Location"] == "/sms/"
    assert client.get("/sms/").status_code == 200
    assert AuditEntry.objects.filter(action="login.second_factor").exists()


def test_a_recovery_code_signs_in_once(ann):
    _device, codes = enrol(_forced(ann))
    client = sign_in()
    assert client.post("/accounts/login/code/", {"code": codes[0]}).status_code == 302
    again = sign_in()
    assert again.post("/accounts/login/code/", {"code": codes[0]}).status_code == 400


@pytest.mark.parametrize("login_url", ["/admin/login/", "/api/auth/login/"])
def test_the_admin_and_api_session_logins_also_stop_at_the_code(ann, login_url):
    enrol(_forced(ann))
    client = Client()
    client.post(login_url, {"username": "ann", "password": PASSWORD})
    assert client.get("/").status_code == 302
    assert client.get("/").headers["Location"].startswith("/accounts/login/code/")


def test_five_wrong_codes_lock_the_user_name_from_that_address_and_end_the_session(ann):
    device, _codes = enrol(_forced(ann))
    client = sign_in()
    answers = [client.post("/accounts/login/code/", {"code": "000000"}).status_code
               for _ in range(5)]
    assert answers == [400, 400, 400, 400, 429]
    assert client.get("/").status_code == 302  # signed out
    same_address = Client(REMOTE_ADDR="10.0.0.1")
    refused = same_address.post("/accounts/login/", {"username": "ann", "password": PASSWORD})
    assert refused.status_code == 429
    sign_in(address="10.0.0.2")  # the owner, elsewhere, is not locked out
    assert AuditEntry.objects.filter(action="login_failed",
                                     summary="wrong second-factor code").count() >= 4


def test_a_password_success_does_not_wipe_earlier_wrong_codes(ann):
    enrol(_forced(ann))
    for _ in range(2):
        client = sign_in()
        for _ in range(2):
            client.post("/accounts/login/code/", {"code": "000000"})
    client = sign_in()
    assert client.post("/accounts/login/code/", {"code": "000000"}).status_code == 429


def test_require_2fa_for_a_group_sends_its_members_to_enrolment(ann, make_user, settings):
    settings.REQUIRE_2FA = ["SMS operators"]
    client = sign_in()
    held = client.get("/sms/")
    assert held.status_code == 302 and held["Location"].startswith("/accounts/profile/")
    page = client.get("/accounts/profile/")
    assert "two-factor-required" in page.content.decode()

    other = make_user("otto", "Top-up operators")
    free = Client()
    free.force_login(other)
    assert free.get("/topup/").status_code == 200


def test_require_2fa_all_covers_everyone_and_enrolment_lets_them_in(ann, settings):
    settings.REQUIRE_2FA = ["all"]
    client = sign_in()
    assert client.get("/").status_code == 302
    client.get("/accounts/profile/")
    device = TOTPDevice.objects.get(user=ann)
    client.post("/accounts/profile/", {"code": code_for(device), "password": PASSWORD})
    assert client.get("/").status_code == 200


@pytest.mark.parametrize("value", ["Nobody", "all,Auditors"])
def test_an_unknown_require_2fa_value_stops_start_up_naming_it(value):
    from tests.foundation.test_environment_settings import start_with

    result = start_with(REQUIRE_2FA=value)
    assert result.returncode != 0 and "REQUIRE_2FA:" in result.stderr


def test_the_demo_user_of_make_run_is_not_enrolled(django_user_model):
    call_command("create_demo_user", stdout=open("/dev/null", "w"))  # noqa: SIM115
    demo = django_user_model.objects.get(username="demo")
    TOTPDevice.objects.create(user=demo, name="x", confirmed=True)
    call_command("create_demo_user", stdout=open("/dev/null", "w"))  # noqa: SIM115
    assert not otp.is_enrolled(demo)

