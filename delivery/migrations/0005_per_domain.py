"""Each delivery record belongs to a domain (1/2): the new fields, and the domains each purge
touched, filled from the domain 0004 attached it to."""

from typing import Any

from django.conf import settings
from django.db import migrations, models


def domains_touched(apps: Any, schema_editor: Any) -> None:
    purge_model = apps.get_model("delivery", "PurgeRequest")
    through = purge_model.domains.through
    through.objects.bulk_create(
        [through(purgerequest_id=pk, domain_id=domain_id) for pk, domain_id in
         purge_model.objects.filter(domain__isnull=False).values_list("pk", "domain_id")],
        batch_size=1000)


class Migration(migrations.Migration):

    dependencies = [
        ('console', '0001_services_and_domains'),
        ('delivery', '0004_attach_to_the_configured_domain'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name='publishedconfig',
            name='answers',
            field=models.JSONField(blank=True, default=dict, verbose_name='answers per section'),
        ),
        migrations.AddField(
            model_name='publishedconfig',
            name='changed',
            field=models.JSONField(blank=True, default=list, verbose_name='sections changed'),
        ),
        migrations.AddField(
            model_name='publishedconfig',
            name='retried_at',
            field=models.DateTimeField(blank=True, null=True, verbose_name='last retried at'),
        ),
        migrations.AddField(
            model_name='purgerequest',
            name='domains',
            field=models.ManyToManyField(blank=True, related_name='+', to='console.domain', verbose_name='domains touched'),
        ),
        migrations.RunPython(domains_touched, migrations.RunPython.noop),
    ]
