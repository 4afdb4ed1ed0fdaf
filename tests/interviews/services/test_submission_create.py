"""submission_create: stored as queued and handed to the judge only after commit; the
rules on stage, part, language and size."""

import pytest

from interviews import models as m
from interviews.services import submissions as service
from interviews.services.errors import InvalidInput, NotAllowed, StateConflict, TooLarge
from interviews.services.follow_ups import stage_push_follow_up


def create(world, **changes):
    values = {
        "stage": world.coding,
        "author": world.owner,
        "question_id": world.coding_q.pk,
        "part": 1,
        "language": "python",
        "code": "print(3)\n",
        "mode": "run",
    }
    values.update(changes)
    return service.submission_create(**values)


def test_judging_is_queued_on_commit(world, monkeypatch, django_capture_on_commit_callbacks):
    queued = []
    monkeypatch.setattr(service, "queue_judging", lambda pk, **_: queued.append(pk))
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        submission = create(world, stdin="4 5\n")
        assert queued == []
    assert submission.status == "queued" and submission.stdin == "4 5\n"
    for callback in callbacks:
        callback()
    assert queued == [submission.pk]


def test_queue_judging_hands_the_id_to_the_judge_task(world, monkeypatch):
    from interviews.judging import tasks

    calls = []
    monkeypatch.setattr(
        tasks.judge_submission, "apply_async", lambda args, **options: calls.append((args, options))
    )
    service.queue_judging(42)
    assert calls == [((42,), {"priority": tasks.SUBMIT_PRIORITY})]


def test_the_post_queues_its_submission_without_reading_it_again(
    world, monkeypatch, django_capture_on_commit_callbacks, django_assert_num_queries
):
    """The service hands its mode to the queue: queuing on commit reads nothing."""
    from interviews.judging import tasks

    calls = []
    monkeypatch.setattr(
        tasks.judge_submission, "apply_async", lambda args, **options: calls.append(options)
    )
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        create(world, mode="run")
    with django_assert_num_queries(0):
        for callback in callbacks:
            callback()
    assert [c["priority"] for c in calls] == [tasks.RUN_PRIORITY]


def test_runs_are_queued_ahead_of_submits(world, monkeypatch):
    """Someone waiting on a run of the samples is not stuck behind bulk submits."""
    from interviews.judging import tasks

    calls = []
    monkeypatch.setattr(
        tasks.judge_submission, "apply_async", lambda args, **options: calls.append(options)
    )
    monkeypatch.setattr(service, "queue_judging", lambda pk, **_: None)
    run = create(world, mode="run")
    submit = create(world, mode="submit")
    tasks.queue_judging(submit.pk)
    tasks.queue_judging(run.pk)
    assert [c["priority"] for c in calls] == [tasks.SUBMIT_PRIORITY, tasks.RUN_PRIORITY]
    assert tasks.RUN_PRIORITY < tasks.SUBMIT_PRIORITY  # kombu's Redis: lower goes first


def test_rules(world, monkeypatch):
    monkeypatch.setattr(service, "queue_judging", lambda pk, **_: None)
    with pytest.raises(TooLarge):
        create(world, code="x" * (64 * 1024 + 1))
    with pytest.raises(NotAllowed):
        create(world, author=world.other)
    with pytest.raises(StateConflict):
        create(world, part=2)  # locked until its follow-up is pushed
    stage_push_follow_up(stage=world.coding, actor=world.assigned, follow_up=world.unlock_follow_up)
    assert create(world, part=2).part == 2
    assert create(world, part=3).part == 3  # never gated
    with pytest.raises(InvalidInput):
        create(world, language="cpp")
    with pytest.raises(InvalidInput):
        create(world, mode="submit", stdin="1")
    with pytest.raises(InvalidInput):
        create(world, question_id=world.review_q.pk)
    with pytest.raises(StateConflict):
        create(world, stage=world.challenge)
    assert m.Submission.objects.filter(stage=world.coding).count() == 3  # world's + 2


class Document:
    def __init__(self, text, language="python"):
        self.text, self.language = text, language


def test_auto_submit_at_the_deadline(world, monkeypatch):
    monkeypatch.setattr(service, "queue_judging", lambda pk, **_: None)
    m.Stage.objects.filter(pk=world.coding.pk).update(status="done")
    submission = service.submission_create_auto(
        stage=world.coding, question_id=world.coding_q.pk, document=Document("print(3)")
    )
    assert (submission.mode, submission.auto, submission.part, submission.status) == (
        "submit",
        True,
        3,
        "queued",
    )
    assert submission.author == world.owner
    for document in (Document("  "), Document("x", language="cpp"), Document("x" * 70_000)):
        assert (
            service.submission_create_auto(
                stage=world.coding, question_id=world.coding_q.pk, document=document
            )
            is None
        )
    assert (
        service.submission_create_auto(
            stage=world.coding, question_id=world.review_q.pk, document=Document("x")
        )
        is None
    )


def test_go_is_accepted_when_the_question_lists_it(world, monkeypatch):
    monkeypatch.setattr(service, "queue_judging", lambda pk, **_: None)
    with pytest.raises(InvalidInput):
        create(world, language="go")
    # a bank edit as the API and the admin make it (its signal moves the bank generation on)
    world.coding_q.languages = ["python", "go"]
    world.coding_q.save(update_fields=["languages"])
    submission = create(world, language="go", code="package main\n\nfunc main() {\n}\n")
    assert submission.language == "go"


def test_a_candidate_has_at_most_two_submissions_in_flight(world, monkeypatch, settings):
    """One candidate cannot hold every worker: queued + running count, finished do not;
    the deadline's auto-submit is never refused."""
    from interviews.services.errors import TooBusy

    monkeypatch.setattr(service, "queue_judging", lambda pk, **_: None)
    assert settings.JUDGE_MAX_IN_FLIGHT_PER_USER == 2
    first = create(world)
    create(world, mode="submit")
    with pytest.raises(TooBusy, match="2 submissions waiting"):
        create(world)
    m.Submission.objects.filter(pk=first.pk).update(status="running")
    with pytest.raises(TooBusy):
        create(world, mode="submit")
    auto = service.submission_create_auto(
        stage=world.coding, question_id=world.coding_q.pk, document=Document("print(3)")
    )
    assert auto is not None and auto.status == "queued"
    m.Submission.objects.filter(pk=first.pk).update(status="done")
    m.Submission.objects.filter(pk=auto.pk).update(status="error")
    assert create(world).status == "queued"  # a slot is free again
