"""Naive: for every user, scan the whole log for their events; sessions by walking the
sorted distinct times."""

import sys

lines = sys.stdin.read().split("\n")
n, gap = map(int, lines[0].split())
events = []
for line in lines[1 : 1 + n]:
    t, user = line.split()
    events.append((int(t), user))
users = []
for _, user in events:
    if user not in users:
        users.append(user)
users.sort(key=lambda u: u.encode())
for user in users:
    ts = sorted(set(t for t, u in events if u == user))
    sessions = []
    current = [ts[0]]
    for t in ts[1:]:
        if t - current[-1] > gap:
            sessions.append(current)
            current = [t]
        else:
            current.append(t)
    sessions.append(current)
    best = sessions[0]
    for s in sessions:
        if s[-1] - s[0] > best[-1] - best[0]:
            best = s
    print(user, len(sessions), len(ts), best[0], best[-1] - best[0])
