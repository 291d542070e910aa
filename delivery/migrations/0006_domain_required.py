"""Each delivery record belongs to a domain (2/2): the domain required (0004 attached the old
rows; a purge may still span domains), names unique per domain."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('console', '0001_services_and_domains'),
        ('delivery', '0005_per_domain'),
    ]

    operations = [
        migrations.AlterModelOptions(
            name='imageversion',
            options={'ordering': ['domain', 'name'], 'verbose_name': 'image version', 'verbose_name_plural': 'image versions'},
        ),
        migrations.AlterModelOptions(
            name='ruleset',
            options={'ordering': ['domain', 'name'], 'verbose_name': 'rule set', 'verbose_name_plural': 'rule sets'},
        ),
        migrations.AlterField(
            model_name='deliverysettings',
            name='domain',
            field=models.OneToOneField(on_delete=django.db.models.deletion.PROTECT, related_name='delivery_settings', to='console.domain', verbose_name='domain'),
        ),
        migrations.AlterField(
            model_name='imageversion',
            name='domain',
            field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='image_versions', to='console.domain', verbose_name='domain'),
        ),
        migrations.AlterField(
            model_name='imageversion',
            name='name',
            field=models.CharField(max_length=32, verbose_name='name'),
        ),
        migrations.AlterField(
            model_name='publishedconfig',
            name='domain',
            field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='publications', to='console.domain', verbose_name='domain'),
        ),
        migrations.AlterField(
            model_name='purgerequest',
            name='domain',
            field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='+', to='console.domain', verbose_name='domain'),
        ),
        migrations.AlterField(
            model_name='ruleset',
            name='domain',
            field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='rule_sets', to='console.domain', verbose_name='domain'),
        ),
        migrations.AlterField(
            model_name='ruleset',
            name='name',
            field=models.CharField(max_length=100, verbose_name='name'),
        ),
        migrations.AddConstraint(
            model_name='imageversion',
            constraint=models.UniqueConstraint(fields=('domain', 'name'), name='image_version_name_once_a_domain'),
        ),
        migrations.AddConstraint(
            model_name='ruleset',
            constraint=models.UniqueConstraint(fields=('domain', 'name'), name='rule_set_name_once_a_domain'),
        ),
        ]
