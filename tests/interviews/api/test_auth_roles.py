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
    assert client.get(f"{API}/stages/{world.coding.pk}/").status_code == 401


def test_a_token_is_looked_up_on_every_request_with_its_user_and_profile(world, as_user):
    """The token lookup is compiled once per thread but runs on every request: the user
    and their saved language come in its one query, and a revoked token is refused on
    the very next request."""
    from knox.models import AuthToken

    from interviews.models import AccountProfile

    AccountProfile.objects.create(user=world.owner, language="zh-Hans")
    client = as_user(world.owner)
    for _ in range(2):
        with CaptureQueriesContext(connection) as ctx:
            response = client.get(f"{API}/stages/{world.coding.pk}/")
        assert response.status_code == 200 and response["Content-Language"] == "zh-Hans"
        sqls = [q["sql"] for q in ctx.captured_queries]
        assert len([sql for sql in sqls if '"knox_authtoken"' in sql]) == 1, sqls
        assert not [sql for sql in sqls if sql.startswith('SELECT "interviews_accountprofile"')]
    AuthToken.objects.filter(user=world.owner).delete()
    assert client.get(f"{API}/stages/{world.coding.pk}/").status_code == 401
