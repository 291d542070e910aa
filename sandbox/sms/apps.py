from django.apps import AppConfig


class SmsConfig(AppConfig):
    name = "sandbox.sms"
    label = "sandbox_sms"
    verbose_name = "Sandbox sms"
