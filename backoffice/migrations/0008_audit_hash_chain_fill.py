"""Chains the entries written before the hash chain existed, in id order.

Runs before `0009_audit_append_only_triggers`: once the triggers exist, no entry can be
changed, so this fill has to come first.
"""

from django.db import migrations

from backoffice.security.audit_chain import entry_hash


def fill(apps, schema_editor):
    AuditEntry = apps.get_model("backoffice", "AuditEntry")
    previous = ""
    for entry in AuditEntry.objects.order_by("pk").iterator(chunk_size=2000):
        entry.prev_hash = previous
        entry.hash = entry_hash(entry)
        AuditEntry.objects.filter(pk=entry.pk).update(prev_hash=entry.prev_hash,
                                                      hash=entry.hash)
        previous = entry.hash


class Migration(migrations.Migration):

    dependencies = [
        ("backoffice", "0007_audit_hash_chain"),
    ]

    operations = [
        migrations.RunPython(fill, migrations.RunPython.noop),
    ]
