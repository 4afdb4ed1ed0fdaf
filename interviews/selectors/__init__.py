"""Reads, split by area; every "who may see what" rule of the practice side is in
`access`.

The HTTP API and the websocket consumers both call these, so a rule changed here changes
everywhere. Visibility (→ 404 when it fails) is decided by the `*_visible_to` querysets;
what a visible user may *do* (→ 403) by the `can_*` predicates.

- admin: everything;
- candidate: their own loops, stages, submissions;
- coach: the stages assigned to them (and the loops containing them); unassigned stages
  only as entries of the coach queue. A claimed stage is visible to its candidate, its
  coach and admins only.

Modules: `access` (roles, predicates, visible querysets), `loops`, `stages` (a stage, its
parts, events, review comments and scorecard), `submissions`, `bank` (questions as bank
files and listings), `reports` (loop reports, progress, calibration).
"""
