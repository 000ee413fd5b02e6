// The reference peer, timed by hand (a benchmark, not a test): @ag-ui/proto 1.0.0's encode
// and decode on the same events as `cargo bench --bench proto`.
//
//   AGUI_PROTO_DUMP=target/tmp/proto-bench cargo bench --bench proto
//   NODE_PATH=target/tmp/proto-ts/node_modules \
//       node benches/proto_peers/ts_peer.cjs target/tmp/proto-bench/events.jsonl
//
// (target/tmp/proto-ts is where tests/proto_ts.rs installs @ag-ui/proto and @ag-ui/core
// 1.0.0 from npm.) Four workloads over all events, each run ROUNDS times after a warm-up,
// reporting the fastest and the median round:
// - "JSON text to proto": JSON.parse + encode (what SSE to proto does per event);
// - "encode objects": encode of already parsed objects;
// - "decode": decode of the official encoder's bytes into objects;
// - "proto to JSON text": decode + JSON.stringify (what proto to SSE does per event).
// The official package encodes and decodes the message only; the 4-byte length framing is
// left out (it is a few instructions per event).
process.env.SUPPRESS_TRANSFORMATION_WARNINGS = "1";
const fs = require("fs");
const { encode, decode } = require("@ag-ui/proto");

const ROUNDS = Number(process.env.ROUNDS || 7);
const lines = fs.readFileSync(process.argv[2], "utf8").split("\n").filter((l) => l.length);
const objects = lines.map((l) => JSON.parse(l));
const frames = objects.map((o) => encode(o));
const sseBytes = lines.reduce((n, l) => n + Buffer.byteLength(l) + 8, 0); // "data: " + "\n\n"
const protoBytes = frames.reduce((n, f) => n + f.length + 4, 0);

function time(name, bytes, f) {
  f(); // warm-up
  const ms = [];
  let check = 0;
  for (let r = 0; r < ROUNDS; r++) {
    const t = process.hrtime.bigint();
    check = f();
    ms.push(Number(process.hrtime.bigint() - t) / 1e6);
  }
  ms.sort((a, b) => a - b);
  const best = ms[0];
  const median = ms[Math.floor(ms.length / 2)];
  const mib = bytes / (1 << 20) / (median / 1000);
  console.log(
    `${name.padEnd(20)} best ${best.toFixed(1)} ms, median ${median.toFixed(1)} ms per ` +
      `${lines.length} events; ${(lines.length / median / 1000).toFixed(3)} M events/s, ` +
      `${mib.toFixed(1)} MiB/s (check ${check})`
  );
}

console.log(
  `@ag-ui/proto 1.0.0 on node ${process.version}: ${lines.length} events, ` +
    `SSE ${sseBytes} bytes, protobuf ${protoBytes} bytes`
);
time("JSON text to proto", sseBytes, () => {
  let n = 0;
  for (const l of lines) n += encode(JSON.parse(l)).length;
  return n;
});
time("encode objects", sseBytes, () => {
  let n = 0;
  for (const o of objects) n += encode(o).length;
  return n;
});
time("decode", protoBytes, () => {
  let n = 0;
  for (const f of frames) n += decode(f).type.length;
  return n;
});
time("proto to JSON text", protoBytes, () => {
  let n = 0;
  for (const f of frames) n += JSON.stringify(decode(f)).length;
  return n;
});
