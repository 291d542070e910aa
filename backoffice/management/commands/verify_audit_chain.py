from collections.abc import Generator
from typing import Any, cast

from django.core.management.base import BaseCommand, CommandError
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from backoffice.models import AuditEntry
from backoffice.security.audit_chain import first_break


def _time(at: Any) -> str:
    return timezone.localtime(at).isoformat(timespec="seconds")


class Command(BaseCommand):
    help = ("Check the audit log's hash chain: names the first entry that was changed, "
            "inserted out of turn or whose predecessor was removed; exits 1 if there is one.")

    def handle(self, *args: Any, **options: Any) -> None:
        entries = cast("Generator[AuditEntry]",  # typed as an Iterator, built as a generator
                       AuditEntry.objects.order_by("pk").iterator(chunk_size=2000))
        try:
            broken, count, last = first_break(entries)
        finally:
            # Stopping at a break leaves PostgreSQL's server-side cursor open: close it now,
            # inside its transaction, not whenever the generator is collected.
            entries.close()
        if broken is not None:
            if broken.field == "prev_hash":
                what = _("its link to the entry before it (#%(previous)s) differs: it names "
                         "%(stored)s, that entry's hash is %(expected)s; an entry between them "
                         "was removed, or one was changed") % {
                    "previous": broken.previous_pk, "stored": broken.stored or "-",
                    "expected": broken.expected}
            else:
                what = _("its content differs from what was written: its stored hash is "
                         "%(stored)s, its content gives %(expected)s") % {
                    "stored": broken.stored or "-", "expected": broken.expected}
            raise CommandError(_("The audit chain is broken at entry #%(id)s (%(at)s): "
                                 "%(what)s.") % {"id": broken.pk, "at": _time(broken.at),
                                                 "what": what}, returncode=1)
        if last is None:
            self.stdout.write(_("The audit log is empty."))
            return
        # The last hash is worth noting elsewhere: removing the newest entries leaves an
        # intact chain, and only a hash kept outside shows they were there.
        self.stdout.write(ngettext(
            "The audit chain holds: %(count)s entry, up to #%(id)s (%(at)s), last hash "
            "%(hash)s.",
            "The audit chain holds: %(count)s entries, up to #%(id)s (%(at)s), last hash "
            "%(hash)s.", count) % {
            "count": count, "id": last.pk, "at": _time(last.at), "hash": last.hash})
