#!/usr/bin/env bash
# Logins under load (docs/performance.md): a server with 250 teachers in a fresh data
# folder, 250 teacher logins sent at once (each with its own name, the right password and
# its own loopback address 127.0.1.x, so that neither the per-name nor the per-address
# limits stop any: every one needs an argon2 check), and /health asked every 5 ms meanwhile. Prints the
# logins' statuses, /health's median, p99 and worst latency while the logins run (probed
# for at least 5 s), the server's RSS before, its peak RSS (VmHWM) and its RSS after; the
# storm is sent twice (QIYUAN_BENCH_STORMS), to see whether memory grows with each.
# Usage: scripts/bench-logins.sh [BINARY...]   (default: target/release/qiyuan; give a
# baseline's release build too to compare). Loopback only; every request has a
# 120 s timeout and the server is stopped at the end.
set -euo pipefail
cd "$(dirname "$0")/.."
binaries=("$@")
[ ${#binaries[@]} -gt 0 ] || binaries=(target/release/qiyuan)
teachers=${QIYUAN_BENCH_TEACHERS:-250}
storms=${QIYUAN_BENCH_STORMS:-2}
cores=$(nproc)

for bin in "${binaries[@]}"; do
  data=$(mktemp -d /tmp/qiyuan-bench-logins.XXXXXX)
  # The teachers, added before the server starts (each `teacher add` hashes once).
  for i in $(seq 0 $((teachers - 1))); do
    echo "password-$i" | "$bin" teacher add "t$i" --password-stdin --data "$data" >/dev/null 2>&1
  done
  port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
  "$bin" serve --addr "127.0.0.1:$port" --data "$data" >"$data/out.log" 2>"$data/err.log" &
  pid=$!
  trap 'kill $pid 2>/dev/null || true' EXIT
  for _ in $(seq 1 300); do
    curl -sf "http://127.0.0.1:$port/health" >/dev/null 2>&1 && break
    sleep 0.1
  done
  echo "== $bin ($cores cores, $teachers logins at once)"
  python3 - "$port" "$pid" "$teachers" "$storms" <<'EOF'
import http.client, sys, threading, time, statistics, collections
port, pid, n, storms = (int(a) for a in sys.argv[1:5])
def rss(field):
    for line in open(f"/proc/{pid}/status"):
        if line.startswith(field):
            return int(line.split()[1]) // 1024
def storm(k):
    start = threading.Barrier(n + 1)
    statuses = collections.Counter()
    lock = threading.Lock()
    def login(i):
        c = http.client.HTTPConnection("127.0.0.1", port, timeout=120,
                                       source_address=(f"127.0.1.{i % 250 + 1}", 0))
        body = f"name=t{i}&password=password-{i}"
        start.wait()
        try:
            c.request("POST", "/login/teacher", body,
                      {"Content-Type": "application/x-www-form-urlencoded"})
            s = c.getresponse().status
        except Exception as e:
            s = type(e).__name__
        with lock:
            statuses[s] += 1
    threads = [threading.Thread(target=login, args=(i,)) for i in range(n)]
    for t in threads: t.start()
    done = threading.Event()
    latencies = []
    def probe():
        c = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
        while not done.is_set():
            t0 = time.perf_counter()
            c.request("GET", "/health"); c.getresponse().read()
            latencies.append((time.perf_counter() - t0) * 1000)
            time.sleep(0.005)
    p = threading.Thread(target=probe); p.start()
    t0 = time.perf_counter()
    start.wait()
    for t in threads: t.join()
    took = time.perf_counter() - t0
    time.sleep(max(0.0, 5.0 - took))
    done.set(); p.join()
    time.sleep(1)
    lat = sorted(latencies)
    p99 = lat[min(len(lat) - 1, int(len(lat) * 0.99))]
    print(f"storm {k}: statuses {dict(statuses)} in {took:.1f} s")
    print(f"  /health: {len(lat)} probes, median {statistics.median(lat):.1f} ms, p99 {p99:.1f} ms, worst {lat[-1]:.1f} ms")
    print(f"  RSS: peak {rss('VmHWM')} MB, after {rss('VmRSS')} MB")
time.sleep(2)
print(f"RSS before: {rss('VmRSS')} MB")
for k in range(1, storms + 1):
    storm(k)
EOF
  kill "$pid"; wait "$pid" 2>/dev/null || true
  trap - EXIT
  rm -rf "$data"
done
