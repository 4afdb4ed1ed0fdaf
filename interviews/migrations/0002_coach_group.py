"""The `coach` group is part of the role contract, so it exists in every database."""

from django.db import migrations


def create_coach_group(apps, schema_editor):
    apps.get_model("auth", "Group").objects.get_or_create(name="coach")


class Migration(migrations.Migration):
    dependencies = [("interviews", "0001_initial"), ("auth", "0012_alter_user_first_name_max_length")]

    operations = [migrations.RunPython(create_coach_group, migrations.RunPython.noop)]
