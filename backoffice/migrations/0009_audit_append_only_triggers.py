"""The database refuses to change or remove audit entries: triggers on UPDATE and DELETE (and
TRUNCATE on PostgreSQL). See `backoffice.security.audit_chain` for what they let through and
docs/access.md for how an operator archives old entries."""

from django.db import migrations

from backoffice.security.audit_chain import install_statements, remove_statements


# Through a cursor without parameters: the function's RAISE holds a '%' that the schema
# editor's execute would read as a placeholder.
def install(apps, schema_editor):
    with schema_editor.connection.cursor() as cursor:
        for statement in install_statements(schema_editor.connection.vendor):
            cursor.execute(statement)


def remove(apps, schema_editor):
    with schema_editor.connection.cursor() as cursor:
        for statement in remove_statements(schema_editor.connection.vendor):
            cursor.execute(statement)


class Migration(migrations.Migration):

    dependencies = [
        ("backoffice", "0008_audit_hash_chain_fill"),
    ]

    operations = [
        migrations.RunPython(install, remove),
    ]
