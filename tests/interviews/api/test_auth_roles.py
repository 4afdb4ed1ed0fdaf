"""Authentication loads each user's role with the user: one query, by token or session,
and a role change counts from the next request."""

import pytest
from django.contrib.auth.models import Group
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from interviews.roles import COACH_GROUP

API = "/api/v1"


def _session_client(user) -> APIClient:
    client = APIClient()
    client.force_login(user)
    return client


CLIENTS = {"token": lambda as_user, user: as_user(user), "session": lambda _, u: _session_client(u)}


@pytest.mark.parametrize("how", CLIENTS)
@pytest.mark.parametrize("who", ["owner", "assigned"])
def test_the_role_comes_with_the_user(world, as_user, how, who):
    client = CLIENTS[how](as_user, getattr(world, who))
    with CaptureQueriesContext(connection) as ctx:
        me = client.get(f"{API}/me/").json()
    assert me["role"] == ("coach" if who == "assigned" else "candidate")
    group_queries = [q["sql"] for q in ctx.captured_queries if '"auth_group"' in q["sql"]]
    assert len(group_queries) == 1 and "EXISTS" in group_queries[0], group_queries


@pytest.mark.parametrize("how", CLIENTS)
def test_a_coach_removed_from_the_group_is_a_candidate_on_the_next_request(world, as_user, how):
    client = CLIENTS[how](as_user, world.assigned)
    assert client.get(f"{API}/me/").json()["role"] == "coach"
    assert "follow_ups" in client.get(f"{API}/stages/{world.coding.pk}/").json()["questions"][0]
    world.assigned.groups.remove(Group.objects.get(name=COACH_GROUP))
    assert client.get(f"{API}/me/").json()["role"] == "candidate"
    # Still assigned, so the stage is visible, but without the coach's view.
    question = client.get(f"{API}/stages/{world.coding.pk}/").json()["questions"][0]
    assert "follow_ups" not in question


def test_an_inactive_users_token_is_refused(world, as_user):
    client = as_user(world.owner)
    world.owner.is_active = False
    world.owner.save()
    assert client.get(f"{API}/me/").status_code == 401
