-- Prints one machine-readable line after a wrk run: req/s, p50 and p99 latency in microseconds, errors,
-- and the number of requests completed.
done = function(summary, latency, requests)
  local errors = summary.errors.connect + summary.errors.read + summary.errors.write
    + summary.errors.status + summary.errors.timeout
  io.write(string.format("RESULT %.0f %.0f %.0f %d %d\n", summary.requests / (summary.duration / 1e6),
    latency:percentile(50), latency:percentile(99), errors, summary.requests))
end
