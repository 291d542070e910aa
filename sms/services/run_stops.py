"""Why a campaign run stops before its end: raised inside a run (campaigns.py and the modules it
uses), caught by `campaigns._run_claimed`, which turns each into the run's outcome."""

from __future__ import annotations

from datetime import datetime

from sms import errors


class LeaseLost(Exception):
    """Another run holds the campaign now, or staff stopped it: this run must stop."""


class OutOfTime(Exception):
    """The run used its time budget; the next run carries on where it stopped."""


class Uncertain(Exception):
    """The provider may or may not have acted; the next run reconciles."""

    def __init__(self, error: errors.SmsError) -> None:
        super().__init__(str(error))
        self.error = error


class WaitForProvider(Exception):
    """Numbers in doubt are missing from the report, but the call that carried them may still
    be worked on by the provider: nothing can be decided before `until`."""

    def __init__(self, until: datetime) -> None:
        super().__init__(f"waiting for the provider until {until.isoformat()}")
        self.until = until


class WindowClosed(Exception):
    """The marketing sending window is closed: nothing more goes out before `opens_at`."""

    def __init__(self, opens_at: datetime) -> None:
        super().__init__(f"outside the sending window until {opens_at.isoformat()}")
        self.opens_at = opens_at


class Halt(Exception):
    """A certain refusal that staff must resolve before the campaign can go on."""

    def __init__(self, code: str, detail: str) -> None:
        super().__init__(f"{code}: {detail}")
        self.code = code
        self.detail = detail
