"""factory_boy factories for the domain; tests build exactly the rows they need."""

import factory
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from knox.models import AuthToken

from interviews import models as m
from interviews.roles import COACH_GROUP


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        django_get_or_create = ("username",)
        skip_postgeneration_save = True

    username = factory.Sequence(lambda n: f"user{n}")
    email = factory.LazyAttribute(lambda u: f"{u.username}@example.com")
    password = factory.django.Password("pw-Correct-Horse-9")


class CoachFactory(UserFactory):
    username = factory.Sequence(lambda n: f"coach{n}")

    @factory.post_generation
    def coach_group(self, create, extracted, **kwargs):
        if create:
            self.groups.add(Group.objects.get_or_create(name=COACH_GROUP)[0])


class AdminFactory(UserFactory):
    username = factory.Sequence(lambda n: f"admin{n}")
    is_staff = True
    is_superuser = True


class RubricFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = m.Rubric
        skip_postgeneration_save = True

    slug = factory.Sequence(lambda n: f"rubric-{n}")
    title = "Default rubric"
    dimensions = factory.RelatedFactoryList(
        "tests.factories.DimensionFactory", factory_related_name="rubric", size=2
    )


class DimensionFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = m.Dimension

    rubric = factory.SubFactory(RubricFactory, dimensions=[])
    position = factory.Sequence(lambda n: n + 1)
    name = factory.Sequence(lambda n: f"Dimension {n}")
    weight = 1.0
    levels = ["poor", "weak", "good", "excellent"]


class QuestionFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = m.Question

    slug = factory.Sequence(lambda n: f"question-{n}")
    kind = "discussion"
    title = factory.LazyAttribute(lambda q: f"Question {q.slug}")
    prompt = "Tell us about it."
    status = "published"


class CodingQuestionFactory(QuestionFactory):
    kind = "coding"
    languages = ["python", "javascript", "cpp"]
    io = "stdio"
    checker = "exact"
    starter = {"python": "import sys\n"}
    reference = {"python": "import sys\nprint(sum(map(int, sys.stdin.read().split())))\n"}


class PartFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = m.Part

    question = factory.SubFactory(CodingQuestionFactory)
    position = 1
    title = factory.LazyAttribute(lambda p: f"Part {p.position}")
    prompt = "Add the numbers."


class TestCaseFactory(factory.django.DjangoModelFactory):
    __test__ = False  # a factory, not a pytest class

    class Meta:
        model = m.TestCase

    part = factory.SubFactory(PartFactory)
    visibility = "sample"
    position = factory.Sequence(lambda n: n)
    input = "1 2\n"
    output = "3\n"


class FollowUpFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = m.FollowUp

    question = factory.SubFactory(CodingQuestionFactory)
    position = 1
    prompt = "Now at most K requests may run at once."
    trigger = "manual"
    coach_notes = "Look for a min-heap keyed by priority."


class PlantedFlawFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = m.PlantedFlaw

    question = factory.SubFactory(QuestionFactory, kind="review", document="line\n" * 30)
    position = factory.Sequence(lambda n: n)
    category = "spof"
    line_start = 3
    line_end = 5
    severity = "high"
    explanation = "The router is a single point of failure."


class LoopTemplateFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = m.LoopTemplate

    slug = factory.Sequence(lambda n: f"loop-{n}")
    title = "Practice loop"
    status = "published"


class StageTemplateFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = m.StageTemplate

    loop_template = factory.SubFactory(LoopTemplateFactory)
    position = factory.Sequence(lambda n: n + 1)
    kind = "coding"
    title = "Live coding"
    minutes = 60
    question_slugs = factory.LazyFunction(list)


class LoopFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = m.Loop

    candidate = factory.SubFactory(UserFactory)
    template = factory.SubFactory(LoopTemplateFactory)
    title = factory.LazyAttribute(lambda loop: loop.template.title)
    coached = True


class StageFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = m.Stage

    loop = factory.SubFactory(LoopFactory)
    position = factory.Sequence(lambda n: n + 1)
    kind = "coding"
    title = "Live coding"
    minutes = 60


def api_token_for(user) -> str:
    """An API token key for `user` (knox, as a login issues), one per user object: asking
    again for the same object gives the same key, as DRF's one token per user used to."""
    key = getattr(user, "_test_api_token", None)
    if key is None:
        _, key = AuthToken.objects.create(user=user)
        user._test_api_token = key
    return key
