from django.apps import AppConfig


class SmsConfig(AppConfig):
    name = "sandbox.sms"
    label = "sandbox_sms"
    verbose_name = "Sandbox sms"

    def ready(self) -> None:
        from sandbox.core.events import on_reset, on_tick
        from sandbox.sms import call_rate
        from sandbox.sms.delivery import deliver_due
        from sandbox.sms.review import approve_due

        # Review first: a template approved in this tick is usable by the next send.
        on_tick(approve_due)
        on_tick(deliver_due)
        on_reset(call_rate.forget)
