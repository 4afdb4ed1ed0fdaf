"""Recording admin actions on the bank (question versions, imports, verification)."""

from typing import Any

from django.db import models

from interviews.models import AuditEntry


def audit_record(
    *, actor, action: str, target: models.Model | None = None, **detail: Any
) -> AuditEntry:
    """Append one audit row; `actor` None means the platform (e.g. a command-line import)."""
    return AuditEntry.objects.create(
        actor=actor if actor is not None and getattr(actor, "is_authenticated", False) else None,
        action=action,
        target_type=target._meta.model_name if target is not None else "",
        target_id=target.pk if target is not None else None,
        target_label=str(target)[:200] if target is not None else "",
        detail=detail,
    )
