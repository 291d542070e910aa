"""Each campaign's messages by status, kept by the database (sms.services.status_counts): the
table, PostgreSQL's triggers that fill it, and the counts of the messages already stored."""

from django.db import migrations, models

# One function for the three triggers (a trigger with transition tables has one event only).
# An UPDATE counts its new rows up and its old rows down, so an update that changes no status
# nets out and adds nothing.
FUNCTION = """
CREATE FUNCTION sms_message_status_counts() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        INSERT INTO sms_campaignstatuscount (campaign_id, status, n)
        SELECT campaign_id, status, count(*) FROM new_rows GROUP BY campaign_id, status;
    ELSIF TG_OP = 'DELETE' THEN
        INSERT INTO sms_campaignstatuscount (campaign_id, status, n)
        SELECT campaign_id, status, -count(*) FROM old_rows GROUP BY campaign_id, status;
    ELSIF TG_OP = 'UPDATE' THEN
        INSERT INTO sms_campaignstatuscount (campaign_id, status, n)
        SELECT campaign_id, status, sum(change) FROM (
            SELECT campaign_id, status, 1 AS change FROM new_rows
            UNION ALL
            SELECT campaign_id, status, -1 FROM old_rows
        ) AS changed
        GROUP BY campaign_id, status HAVING sum(change) <> 0;
    ELSE
        DELETE FROM sms_campaignstatuscount;
    END IF;
    RETURN NULL;
END
$$
"""

TRIGGERS = {
    "sms_message_counts_insert": "AFTER INSERT ON sms_message REFERENCING NEW TABLE AS new_rows",
    "sms_message_counts_update":
        "AFTER UPDATE ON sms_message REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows",
    "sms_message_counts_delete": "AFTER DELETE ON sms_message REFERENCING OLD TABLE AS old_rows",
    "sms_message_counts_truncate": "AFTER TRUNCATE ON sms_message",
}


# The triggers first, then the count of what is stored, in the migration's one transaction:
# CREATE TRIGGER locks the table against writes until commit, so no message changes between
# the count and the triggers taking over.
def install(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return  # counted from the messages instead
    with schema_editor.connection.cursor() as cursor:
        cursor.execute(FUNCTION)
        for name, when in TRIGGERS.items():
            cursor.execute(f"CREATE TRIGGER {name} {when}"
                           " FOR EACH STATEMENT EXECUTE FUNCTION sms_message_status_counts()")
        cursor.execute(
            "INSERT INTO sms_campaignstatuscount (campaign_id, status, n)"
            " SELECT campaign_id, status, count(*) FROM sms_message GROUP BY campaign_id, status")


def remove(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    with schema_editor.connection.cursor() as cursor:
        for name in TRIGGERS:
            cursor.execute(f"DROP TRIGGER IF EXISTS {name} ON sms_message")
        cursor.execute("DROP FUNCTION IF EXISTS sms_message_status_counts()")


class Migration(migrations.Migration):

    dependencies = [
        ('sms', '0014_campaign_settled_counts'),
    ]

    operations = [
        migrations.CreateModel(
            name='CampaignStatusCount',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('campaign_id', models.BigIntegerField(verbose_name='campaign')),
                ('status', models.CharField(max_length=100, verbose_name='status')),
                ('n', models.BigIntegerField(verbose_name='change in the number of messages')),
            ],
            options={
                'verbose_name': 'campaign status count',
                'verbose_name_plural': 'campaign status counts',
                'indexes': [models.Index(fields=['campaign_id'], name='sms_status_count_campaign')],
            },
        ),
        migrations.RunPython(install, remove),
    ]
