"""A coached loop's live rounds are in the coach queue from the loop's start: put the
pending, unclaimed ones of loops started before that rule into the queue."""

from django.db import migrations

from interviews.stage_kinds import stage_kind_list


def queue_pending_coached_stages(apps, schema_editor) -> None:
    stage_model = apps.get_model("interviews", "Stage")
    live_kinds = [spec.kind for spec in stage_kind_list() if spec.live]
    stage_model.objects.filter(
        loop__coached=True, kind__in=live_kinds, status="pending", coach__isnull=True
    ).update(coach_requested=True)


class Migration(migrations.Migration):
    dependencies = [("interviews", "0009_key_points_self_assessment")]

    operations = [migrations.RunPython(queue_pending_coached_stages, migrations.RunPython.noop)]
