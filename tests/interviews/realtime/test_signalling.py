"""The per-socket budget of call signals (interviews/realtime/signalling.py)."""

from interviews.realtime.signalling import SignalBudget


def test_the_budget_refills_at_its_rate_up_to_its_burst():
    now = [0.0]
    budget = SignalBudget(burst=3, per_s=2, tokens=3, at=0.0, clock=lambda: now[0])
    assert [budget.take() for _ in range(4)] == [True, True, True, False]
    now[0] = 0.5
    assert [budget.take(), budget.take()] == [True, False]
    now[0] = 100.0
    assert sum(budget.take() for _ in range(10)) == 3
