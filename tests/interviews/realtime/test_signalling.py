"""The per-socket token bucket of client messages (interviews/realtime/limits.py), call
signals' budget among them."""

from interviews.realtime.limits import TokenBucket


def test_the_budget_refills_at_its_rate_up_to_its_burst():
    now = [0.0]
    budget = TokenBucket(burst=3, per_s=2, tokens=3, at=0.0, clock=lambda: now[0])
    assert [budget.take() for _ in range(4)] == [True, True, True, False]
    now[0] = 0.5
    assert [budget.take(), budget.take()] == [True, False]
    now[0] = 100.0
    assert sum(budget.take() for _ in range(10)) == 3
