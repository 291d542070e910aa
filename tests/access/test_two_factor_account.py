"""The second factor, finished: enrolment, a new set of recovery codes, moving to a new phone
and turning it off each need the password again (counted by the login throttle); recovery
codes are kept as digests and TOTP seeds sealed, existing ones converted by a migration; the
account page shows the codes left; the throttle's wait is named in seconds; the pages are
never cached."""

from __future__ import annotations

import importlib
from binascii import hexlify

import pytest
from django.apps import apps
from django.test import Client
from django.utils import timezone
from django_otp.oath import totp
from django_otp.plugins.otp_static.models import StaticDevice, StaticToken
from django_otp.plugins.otp_totp.models import TOTPDevice

from backoffice import otp_keys
from backoffice.models import RecoveryCode, SealedTOTPDevice

pytestmark = pytest.mark.django_db

PASSWORD = "Right-pass-2468!"
migration = importlib.import_module(
    "backoffice.migrations.0005_seal_existing_seeds_and_hash_existing_codes")


def code_for(device, steps_ahead: int = 0) -> str:
    return f"{totp(device.bin_key, t0=device.t0, step=device.step, drift=steps_ahead):06d}"


@pytest.fixture
def ann(make_user):
    user = make_user("ann", "SMS operators")
    user.set_password(PASSWORD)
    user.save()
    return user


@pytest.fixture
def client(ann) -> Client:
    client = Client(REMOTE_ADDR="10.0.0.1")
    client.force_login(ann)
    return client


def enrol(client: Client) -> tuple[SealedTOTPDevice, list[str]]:
    client.get("/accounts/profile/")
    device = SealedTOTPDevice.objects.get(confirmed=False)
    done = client.post("/accounts/profile/", {"code": code_for(device), "password": PASSWORD})
    assert done.status_code == 200
    return SealedTOTPDevice.objects.get(pk=device.pk), done.context["codes"]


def test_enrolment_needs_the_password_again(client, ann):
    client.get("/accounts/profile/")
    device = SealedTOTPDevice.objects.get(confirmed=False)
    response = client.post("/accounts/profile/", {"code": code_for(device), "password": "no"})
    assert response.status_code == 400
    assert response.context["form"].errors["password"] == ["This password is not right."]
    assert not TOTPDevice.objects.filter(confirmed=True).exists()
    missing = client.post("/accounts/profile/", {"code": code_for(device)})
    assert "password" in missing.context["form"].errors


def test_wrong_passwords_at_enrolment_count_toward_the_lockout_and_end_the_session(client):
    client.get("/accounts/profile/")
    device = SealedTOTPDevice.objects.get(confirmed=False)
    answers = [client.post("/accounts/profile/", {"code": code_for(device),
                                                  "password": "wrong"}).status_code
               for _ in range(5)]
    assert answers == [400, 400, 400, 400, 429]
    assert "_auth_user_id" not in client.session


def test_recovery_codes_are_kept_as_digests_and_seeds_sealed(client, ann):
    device, codes = enrol(client)
    stored = TOTPDevice.objects.get(pk=device.pk).key
    assert stored.startswith("s1:")
    assert hexlify(device.bin_key).decode() not in stored
    assert not StaticToken.objects.exists()
    digests = set(RecoveryCode.objects.values_list("digest", flat=True))
    assert len(digests) == 10 and not digests & set(codes)
    assert all(len(code.replace("-", "")) == 16 for code in codes)  # 80 bits each


def test_a_seed_sealed_under_another_key_is_unreadable(settings):
    sealed = otp_keys.seal_seed(b"0123456789abcdefghij")
    settings.OTP_ENCRYPTION_KEY = "another key"
    with pytest.raises(otp_keys.UnreadableSeed):
        otp_keys.open_seed(sealed)


def test_the_migration_seals_existing_seeds_and_hashes_existing_codes(ann):
    seed = bytes(range(20))
    totp_device = TOTPDevice.objects.create(user=ann, name="old phone", confirmed=True,
                                            key=hexlify(seed).decode())
    static = StaticDevice.objects.create(user=ann, name="recovery codes")
    StaticToken.objects.create(device=static, token="abcd2345")

    migration.seal_and_hash(apps, None)
    migration.seal_and_hash(apps, None)  # twice: nothing is sealed twice

    assert SealedTOTPDevice.objects.get(pk=totp_device.pk).bin_key == seed
    assert not StaticToken.objects.exists()
    client = Client(REMOTE_ADDR="10.0.0.1")
    client.post("/accounts/login/", {"username": "ann", "password": PASSWORD})
    assert client.post("/accounts/login/code/", {"code": "ABCD 2345"}).status_code == 302
    assert not RecoveryCode.objects.exists()  # spent

    migration.open_seeds(apps, None)
    assert TOTPDevice.objects.get(pk=totp_device.pk).key == hexlify(seed).decode()


def test_the_account_page_shows_the_recovery_codes_left(client, ann):
    _device, codes = enrol(client)
    assert "You have 10 unused recovery codes." in client.get("/accounts/profile/").content.decode()
    sign_in = Client(REMOTE_ADDR="10.0.0.1")
    sign_in.post("/accounts/login/", {"username": "ann", "password": PASSWORD})
    sign_in.post("/accounts/login/code/", {"code": codes[0].upper()})
    assert "You have 9 unused recovery codes." in client.get("/accounts/profile/").content.decode()


def test_a_new_set_of_recovery_codes_needs_the_password_and_replaces_the_old(client, ann):
    _device, old_codes = enrol(client)
    refused = client.post("/accounts/profile/recovery-codes/", {"codes-password": "wrong"})
    assert refused.status_code == 400
    assert refused.context["codes_form"].errors["password"] == ["This password is not right."]

    answer = client.post("/accounts/profile/recovery-codes/", {"codes-password": PASSWORD})
    assert answer.status_code == 200
    assert "no-store" in answer["Cache-Control"]
    new_codes = answer.context["codes"]
    page = answer.content.decode()
    assert 'id="recovery-copy"' in page and 'download="recovery-codes.txt"' in page
    assert new_codes[0] in answer.context["download_href"]
    sign_in = Client(REMOTE_ADDR="10.0.0.1")
    sign_in.post("/accounts/login/", {"username": "ann", "password": PASSWORD})
    assert sign_in.post("/accounts/login/code/", {"code": old_codes[0]}).status_code == 400
    assert sign_in.post("/accounts/login/code/", {"code": new_codes[0]}).status_code == 302


def test_moving_to_a_new_phone_enrols_the_new_one_then_removes_the_old(client, ann):
    old, codes = enrol(client)
    page = client.get("/accounts/profile/new-phone/")
    assert page.status_code == 200 and "no-store" in page["Cache-Control"]
    new = SealedTOTPDevice.objects.get(confirmed=False)
    assert new.pk != old.pk
    wrong = client.post("/accounts/profile/new-phone/", {"code": code_for(new),
                                                         "password": "wrong"})
    assert wrong.status_code == 400 and "password" in wrong.context["form"].errors
    done = client.post("/accounts/profile/new-phone/", {"code": code_for(new),
                                                        "password": PASSWORD})
    assert done.status_code == 302
    assert list(TOTPDevice.objects.filter(user=ann).values_list("pk", flat=True)) == [new.pk]
    assert RecoveryCode.objects.count() == 10  # the codes stay
    assert client.get("/sms/").status_code == 200  # the session stays verified


def test_turning_it_off_needs_the_password_and_is_refused_when_the_role_requires_it(
        client, ann, settings):
    enrol(client)
    refused = client.post("/accounts/profile/turn-off/", {"off-password": "wrong"})
    assert refused.status_code == 400
    assert TOTPDevice.objects.filter(user=ann).exists()

    settings.REQUIRE_2FA = ["SMS operators"]
    required = client.post("/accounts/profile/turn-off/", {"off-password": PASSWORD})
    assert required.status_code == 400
    assert "cannot be turned off" in required.content.decode()

    settings.REQUIRE_2FA = []
    assert client.post("/accounts/profile/turn-off/",
                       {"off-password": PASSWORD}).status_code == 302
    assert not TOTPDevice.objects.filter(user=ann).exists()
    assert not StaticDevice.objects.filter(user=ann).exists()


def test_the_code_throttle_is_named_as_a_wait_in_seconds(client, ann):
    device, _codes = enrol(client)
    sign_in = Client(REMOTE_ADDR="10.0.0.1")
    sign_in.post("/accounts/login/", {"username": "ann", "password": PASSWORD})
    TOTPDevice.objects.filter(pk=device.pk).update(
        throttling_failure_count=4, throttling_failure_timestamp=timezone.now())
    answer = sign_in.post("/accounts/login/code/", {"code": code_for(device, 1)})
    assert answer.status_code == 400
    message = answer.context["form"].errors["code"][0]
    assert message.startswith("Too many wrong codes: wait ") and "seconds" in message
    chinese = sign_in.post("/accounts/login/code/", {"code": code_for(device, 1)},
                           HTTP_ACCEPT_LANGUAGE="zh-hans")
    assert "秒" in chinese.context["form"].errors["code"][0]


def test_the_enrolment_and_code_pages_are_never_cached(client, ann):
    enrolment = client.get("/accounts/profile/")
    assert "no-store" in enrolment["Cache-Control"]
    codes_page = client.post("/accounts/profile/", {
        "code": code_for(SealedTOTPDevice.objects.get(confirmed=False)), "password": PASSWORD})
    assert "no-store" in codes_page["Cache-Control"]
    sign_in = Client(REMOTE_ADDR="10.0.0.1")
    sign_in.post("/accounts/login/", {"username": "ann", "password": PASSWORD})
    assert "no-store" in sign_in.get("/accounts/login/code/")["Cache-Control"]
