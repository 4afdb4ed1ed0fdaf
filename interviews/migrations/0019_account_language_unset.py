from django.db import migrations, models


def forget_default_english(apps, schema_editor):
    """Until now every profile said "en" (the old default; the interface was English only),
    whether or not its person chose it: they read the browser's language from now on."""
    AccountProfile = apps.get_model("interviews", "AccountProfile")
    AccountProfile.objects.filter(language="en").update(language="")


class Migration(migrations.Migration):
    dependencies = [
        ("interviews", "0018_account_verified_email"),
    ]

    operations = [
        migrations.AlterField(
            model_name="accountprofile",
            name="language",
            field=models.CharField(
                blank=True,
                choices=[("en", "English"), ("zh-Hans", "简体中文"), ("zh-Hant", "繁體中文")],
                default="",
                max_length=8,
            ),
        ),
        migrations.RunPython(forget_default_english, migrations.RunPython.noop),
    ]
