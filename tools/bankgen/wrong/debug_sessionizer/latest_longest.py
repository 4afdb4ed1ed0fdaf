"""Wrong: every bug fixed but the tie: the latest of equally long sessions is reported."""

import sys


def sessionize(times, gap):
    """Split one user's event times into sessions: [[start, end, events], ...]."""
    sessions = []
    for t in times:
        if sessions and t - sessions[-1][1] <= gap:
            sessions[-1][1] = t
            sessions[-1][2] += 1
        else:
            sessions.append([t, t, 1])
    return sessions


def main():
    lines = sys.stdin.read().split("\n")
    n, gap = map(int, lines[0].split())
    users = {}
    for line in lines[1 : 1 + n]:
        t, user = line.split()
        users.setdefault(user, set()).add(int(t))
    for user in sorted(users):
        sessions = sessionize(sorted(users[user]), gap)
        events = sum(s[2] for s in sessions)
        longest = sessions[0]
        for s in sessions:
            if s[1] - s[0] >= longest[1] - longest[0]:
                longest = s
        print(user, len(sessions), events, longest[0], longest[1] - longest[0])


main()
