"""Review comments can be edited and deleted by their author while the stage is live,
and by nobody else."""

import pytest

from interviews.models import ReviewComment, Stage
from interviews.services.errors import InvalidInput, NotAllowed, NotFound, StateConflict
from interviews.services.reviews import (
    review_comment_create,
    review_comment_delete,
    review_comment_update,
)
from tests.factories import UserFactory


@pytest.fixture
def review(world):
    Stage.objects.filter(pk=world.coding.pk).update(status="done")
    Stage.objects.filter(pk=world.review.pk).update(status="live")
    world.review.refresh_from_db()
    comment = review_comment_create(
        stage=world.review, author=world.owner, line_start=3, line_end=4, category="spof", text="x"
    )
    return world, comment


def test_the_author_edits_only_what_is_given(review):
    world, comment = review
    review_comment_update(
        stage=world.review, author=world.owner, comment_id=comment.pk, category="timeouts"
    )
    comment.refresh_from_db()
    assert (comment.category, comment.text, comment.line_start) == ("timeouts", "x", 3)
    review_comment_update(
        stage=world.review,
        author=world.owner,
        comment_id=comment.pk,
        line_start=10,
        line_end=12,
        text="no timeout",
    )
    comment.refresh_from_db()
    assert (comment.line_start, comment.line_end, comment.text) == (10, 12, "no timeout")


def test_edits_are_checked_like_new_comments(review):
    world, comment = review
    with pytest.raises(InvalidInput):
        review_comment_update(
            stage=world.review, author=world.owner, comment_id=comment.pk, line_start=5, line_end=2
        )
    with pytest.raises(InvalidInput):
        review_comment_update(
            stage=world.review, author=world.owner, comment_id=comment.pk, category="vibes"
        )
    with pytest.raises(InvalidInput):
        review_comment_update(
            stage=world.review, author=world.owner, comment_id=comment.pk, line_start=5
        )


def test_the_author_deletes_while_live(review):
    world, comment = review
    review_comment_delete(stage=world.review, author=world.owner, comment_id=comment.pk)
    assert not ReviewComment.objects.filter(pk=comment.pk).exists()
    with pytest.raises(NotFound):
        review_comment_delete(stage=world.review, author=world.owner, comment_id=comment.pk)


@pytest.mark.parametrize("who", ["assigned", "admin", "other"])
def test_coaches_admins_and_others_may_not_change_a_comment(review, who):
    world, comment = review
    with pytest.raises(NotAllowed):
        review_comment_update(
            stage=world.review, author=getattr(world, who), comment_id=comment.pk, text="mine"
        )
    with pytest.raises(NotAllowed):
        review_comment_delete(stage=world.review, author=getattr(world, who), comment_id=comment.pk)
    comment.refresh_from_db()
    assert comment.text == "x"


def test_only_the_comment_author_changes_it(review):
    world, comment = review
    ReviewComment.objects.filter(pk=comment.pk).update(author=UserFactory())
    with pytest.raises(NotAllowed) as refused:
        review_comment_delete(stage=world.review, author=world.owner, comment_id=comment.pk)
    assert refused.value.code == "not_comment_author"


def test_a_finished_review_keeps_its_comments(review):
    world, comment = review
    Stage.objects.filter(pk=world.review.pk).update(status="done")
    with pytest.raises(StateConflict) as closed:
        review_comment_update(
            stage=world.review, author=world.owner, comment_id=comment.pk, text="later"
        )
    assert closed.value.code == "stage_not_live"
    with pytest.raises(StateConflict):
        review_comment_delete(stage=world.review, author=world.owner, comment_id=comment.pk)
    assert ReviewComment.objects.filter(pk=comment.pk, text="x").exists()
