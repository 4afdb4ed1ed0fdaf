def fnv1a(key):
    h = 2166136261
    for byte in key.encode("utf-8"):
        h = ((h ^ byte) * 16777619) & 0xFFFFFFFF
    return h


def aggregate(shards, k, reducers):
    values = {}
    order = []  # (key) of every record, in shard order then record order
    for shard in shards:
        for key, value in shard:
            bucket = values.get(key)
            if bucket is None:
                values[key] = bucket = []
            bucket.append(value)
            order.append(key)
    total = len(order)

    ranked = sorted(values, key=lambda key: (-len(values[key]), key))
    top = []
    for key in ranked[:k]:
        vals = sorted(values[key])
        best_value, best_count = vals[0], 0
        run_start = 0
        for i in range(1, len(vals) + 1):
            if i == len(vals) or vals[i] != vals[run_start]:
                if i - run_start > best_count:
                    best_value, best_count = vals[run_start], i - run_start
                run_start = i
        top.append([key, len(vals), best_value, vals[(len(vals) - 1) // 2]])

    home = {key: fnv1a(key) % reducers for key in values}
    loads = [0] * reducers
    for key, vals in values.items():
        loads[home[key]] += len(vals)

    # a key is hot when it alone holds more than an even share of the records
    hot = sorted(key for key, vals in values.items() if len(vals) * reducers > total)
    hot_set = set(hot)
    salted = [0] * reducers
    seen = dict.fromkeys(hot, 0)
    for key in order:
        if key in hot_set:
            salted[(home[key] + seen[key]) % reducers] += 1
            seen[key] += 1
        else:
            salted[home[key]] += 1
    return {
        "records": total,
        "distinct": len(values),
        "top": top,
        "loads": loads,
        "hot": hot,
        "salted_loads": salted,
    }
