"""Scoring: what a coach decided about the automatic scoring of a stage."""

from django.conf import settings
from django.db import models

from .bank import PlantedFlaw
from .practice import ReviewComment


class ReviewMatchOverride(models.Model):
    """A coach's ruling on one review comment: it matches `flaw` (whatever the category or
    lines say), or — with `flaw` empty — it matches no flaw. It replaces the automatic
    match of that comment in the review score."""

    comment = models.OneToOneField(
        ReviewComment, on_delete=models.CASCADE, related_name="match_override"
    )
    flaw = models.ForeignKey(
        PlantedFlaw, null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    coach = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    # With no `flaw`: the coach accepted the comment as a valid finding that is not a
    # planted flaw (scored like a known issue: neutral, not a false alarm).
    valid = models.BooleanField(default=False)
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        target = f"flaw {self.flaw_id}" if self.flaw_id else ("valid" if self.valid else "no flaw")
        return f"comment {self.comment_id} → {target}"
