"""Live-room state that is not a plain event: compacted shared documents.

A shared document (a question's code, the design notes, the whiteboard) is a Yjs CRDT.
Every update is appended to the stage's event log as `doc.update`; a `StageDocument`
holds the merged state up to `seq`, so loading a room replays only the tail of the log.
"""

from django.db import models

from .practice import Stage


class StageDocument(models.Model):
    stage = models.ForeignKey(Stage, on_delete=models.CASCADE, related_name="documents")
    name = models.CharField(max_length=64, help_text="code:<question id>, notes or scene.")
    state = models.BinaryField(default=b"", help_text="Yjs update encoding the merged state.")
    seq = models.PositiveBigIntegerField(default=0, help_text="Events up to here are merged.")
    text = models.TextField(blank=True, help_text="Plain-text view (the code), for search.")
    language = models.CharField(max_length=16, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["stage", "name"]
        constraints = [
            models.UniqueConstraint(fields=["stage", "name"], name="stagedocument_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.stage_id}:{self.name}@{self.seq}"
