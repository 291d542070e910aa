"""The StoredFile mirror forgets the kept files' folder (issue 27), which the browser hides.

Rows of the mirror are a copy of what the provider lists, not data of ours: the files stay in
the bucket. The walk no longer enters that folder, so the rows do not come back.
"""

from django.conf import settings
from django.db import migrations
from django.db.models import Q


def forget_kept_files(apps, schema_editor):
    folder = "/" + (getattr(settings, "FILE_STORAGE_FOLDER", "") or "/backoffice-private").strip("/")
    if folder == "/":
        return
    StoredFile = apps.get_model("storage", "StoredFile")
    StoredFile.objects.filter(Q(path=folder) | Q(path__startswith=folder + "/")).delete()


class Migration(migrations.Migration):

    dependencies = [
        ('storage', '0004_usagesnapshot'),
    ]

    operations = [
        migrations.RunPython(forget_kept_files, migrations.RunPython.noop),
    ]
