#!/usr/bin/env bash
# Starts a 3-member graphdb cluster on this machine (docs/replication.md): three nats-server
# processes with JetStream, clustered, and three `graphdb serve --cluster` processes, everything
# on 127.0.0.1. Ctrl-C stops all six. Requires nats-server on PATH and a built CLI (npm run build).
#
#   GRAPHDB_AUTH=neo4j:secret-password GRAPHDB_JWT_SECRET=<32+ bytes> bin/cluster-local.sh [base-dir]
#
# Ports: NATS clients 4222-4224, NATS routes 6222-6224, Bolt 7687-7689, HTTP 7474-7476.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
base="${1:-$(mktemp -d -t graphdb-cluster-XXXXXX)}"
: "${GRAPHDB_AUTH:?set GRAPHDB_AUTH=user:password (the same on every member)}"
: "${GRAPHDB_JWT_SECRET:?set GRAPHDB_JWT_SECRET (at least 32 bytes, the same on every member)}"
pids=()
cleanup() { kill "${pids[@]}" 2>/dev/null || true; wait 2>/dev/null || true; }
trap cleanup EXIT INT TERM
for i in 0 1 2; do
  mkdir -p "$base/nats$i" "$base/data$i"
  routes=""
  for j in 0 1 2; do [ "$j" != "$i" ] && routes="$routes nats://127.0.0.1:$((6222 + j)),"; done
  cat > "$base/nats$i.conf" <<CONF
server_name: n$i
listen: 127.0.0.1:$((4222 + i))
jetstream { store_dir: "$base/nats$i" }
cluster { name: graphdb_local, listen: 127.0.0.1:$((6222 + i)), routes: [${routes%,}] }
CONF
  nats-server -c "$base/nats$i.conf" > "$base/nats$i.log" 2>&1 &
  pids+=($!)
done
for i in 0 1 2; do
  node "$here/bin/run.js" serve --data-dir "$base/data$i" --http-port $((7474 + i)) --bolt-port $((7687 + i)) \
    --cluster "nats://127.0.0.1:$((4222 + i))" --node-id "member$i" > "$base/graphdb$i.log" 2>&1 &
  pids+=($!)
done
echo "cluster starting under $base (logs: graphdb0..2.log, nats0..2.log)"
echo "connect with neo4j://127.0.0.1:7687 ; status: curl -u \"\$GRAPHDB_AUTH\" http://127.0.0.1:7474/status"
wait
