"""Feedback computed on read: pure, explainable rules that turn a stage's rows into scores
(`scoring`: scorecard arithmetic) and comments (`deep_dive`: checks on a deep-dive
answer). No viewer and no visibility here: `interviews.selectors.reports` decides who
sees what and calls these."""
