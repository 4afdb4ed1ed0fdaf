"""The judging workflow: turning a submission or a question's reference solution into
sandbox jobs, handing them to the worker, and storing what comes back.

    api / services ──► judging ──► sandbox (a library: containers, runner, checkers)
                          │
                          └──► models, realtime.events (verdict events)

Modules: ``jobs`` (sandbox jobs from bank rows), ``submissions`` (claims and leases,
judging, the requeue sweep), ``verification`` (reference solutions, on the worker),
``signals`` (``part_passed``, which the scripted interviewer listens to), ``tasks`` (the
thin Celery tasks). Nothing here imports the services above it: they call down, and
hear back through ``signals``.
"""
