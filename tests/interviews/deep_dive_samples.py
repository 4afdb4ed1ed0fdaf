"""Sample project deep-dive answers shared by the deep-dive and report tests."""

#: Covers all seven parts, quantifies with before/after pairs, and its ROI adds up
#: ($12M a year over 3 years against $20M).
STRONG_ANSWER = """## Context
Our inference fleet was costing $30M a year and customers complained about a P99 of 900 ms.

## Architecture
I designed a continuous batcher in front of the GPU workers; the system consists of a
router, a paged KV cache manager and the workers.

## Trade-offs
We chose continuous batching over static batching, at the cost of a more complex scheduler.

## Failures
The first rollout crashed under long prompts: an outage of 40 minutes. We rolled back and
I added admission control.

## Metrics
P99 latency went from 900 ms to 250 ms; throughput rose from 1,200 QPS to 3,000 QPS.

## Ownership
I led the design and wrote the scheduler; two engineers built the dashboards.

## 10x
At 10x load the KV cache memory would break first.

## ROI
The project cost 50 engineer-years (~$20M). It saved $12M per year in GPU spend over 3 years.
"""
