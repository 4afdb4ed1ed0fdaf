"""A loop template starts as a draft: half-built templates never reach candidates'
catalogues (the API list, the start of a loop), only published ones do."""

import pytest

from interviews import models as m
from tests.factories import StageTemplateFactory

API = "/api/v1"


def test_a_new_loop_template_is_a_draft(db):
    template = m.LoopTemplate.objects.create(slug="ux-coach-mini", title="UX coach mini loop")
    assert template.status == m.LoopTemplate._meta.get_field("status").default == "draft"


def test_the_admin_add_form_starts_a_template_as_a_draft(world, client):
    client.force_login(world.admin)
    response = client.get("/admin/interviews/looptemplate/add/")
    assert response.status_code == 200
    assert '<option value="draft" selected>' in response.content.decode()


def test_candidates_are_listed_only_published_templates(world, as_user):
    draft = m.LoopTemplate.objects.create(slug="ux-coach-mini", title="UX coach mini loop")
    StageTemplateFactory(loop_template=draft, question_slugs=[world.coding_q.slug])
    candidate = as_user(world.owner)
    slugs = [t["slug"] for t in candidate.get(f"{API}/loop-templates/").json()]
    assert "ux-coach-mini" not in slugs
    assert "ai-lab" in slugs
    refused = candidate.post(f"{API}/loops/", {"template": "ux-coach-mini"}, format="json")
    assert refused.status_code == 400

    draft.status = "published"
    draft.save()
    slugs = [t["slug"] for t in candidate.get(f"{API}/loop-templates/").json()]
    assert "ux-coach-mini" in slugs


@pytest.mark.parametrize("status", ["draft", "archived"])
def test_an_unpublished_template_is_never_listed(world, as_user, status):
    m.LoopTemplate.objects.create(slug="half-built", title="Half built", status=status)
    slugs = [t["slug"] for t in as_user(world.owner).get(f"{API}/loop-templates/").json()]
    assert "half-built" not in slugs
