"""What judging tells the layers above it, without importing them."""

from django.dispatch import Signal

#: Sent (inside the transaction that stored it) after a submit of a part passed every
#: hidden test: ``part_passed.send(sender=Submission, submission=...)``. The scripted
#: interviewer (``services.live``) answers with the next follow-up.
part_passed = Signal()
