// The JavaScript model solution of async-bounded-fetcher, checked against the bank by
// tests/tools/test_bankgen_async_fetcher_js.py (the generator itself runs only Python).

async function fetchAll(urls, fetch, limit, timeout, signal) {
  const results = new Array(urls.length);
  let next = 0;
  async function one(i) {
    const controller = new AbortController();
    const onAbort = () => controller.abort(signal.reason);
    signal.addEventListener("abort", onAbort);
    const timer = setTimeout(() => controller.abort(new Error("timeout")), timeout);
    try {
      results[i] = await fetch(urls[i], { signal: controller.signal });
    } catch (err) {
      if (signal.aborted) throw signal.reason;
      if (err instanceof FetchError) results[i] = "error";
      else if (controller.signal.aborted) results[i] = "timeout";
      else throw err;
    } finally {
      clearTimeout(timer);
      signal.removeEventListener("abort", onAbort);
    }
  }
  async function worker() {
    while (next < urls.length) {
      signal.throwIfAborted();
      await one(next++);
    }
  }
  await Promise.all(Array.from({ length: Math.min(limit, urls.length) }, worker));
  return results;
}
