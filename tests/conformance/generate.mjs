#!/usr/bin/env node
// TypeScript half of the agui-wire conformance corpus generator (Node 20).
//
// Run through ./regenerate, after `generate.py build`:
//
//   node generate.mjs --work DIR
//
// 1. Builds the TypeScript documents: plain objects parsed by the
//    @ag-ui/core/schemas zod schemas, then JSON.stringify of the parsed value
//    (accept/ts-*.json, accept/capabilities-ts-*.json), and an SSE stream of
//    every events/*.json event written by @ag-ui/encoder's EventEncoder.
// 2. Validates every document of the corpus (Python-built ones included) with
//    the zod schemas and flattens each parsed value the way README.md says.
// 3. Writes DIR/ts-results.json for `generate.py expect`.
//
// Deterministic: no clock, no random source; files are visited in sorted order.

import { readFileSync, writeFileSync, mkdirSync } from "node:fs";
import { dirname, join, relative, basename } from "node:path";
import { fileURLToPath } from "node:url";
import * as S from "@ag-ui/core/schemas";
import { EventEncoder } from "@ag-ui/encoder";

const HERE = dirname(fileURLToPath(import.meta.url));
const REPO = join(HERE, "..", "..");
const argv = process.argv.slice(2);
const workAt = argv.indexOf("--work");
if (workAt < 0 || !argv[workAt + 1]) {
  console.error("usage: node generate.mjs --work DIR");
  process.exit(2);
}
const WORK = argv[workAt + 1];
const pyManifest = JSON.parse(readFileSync(join(WORK, "py-manifest.json"), "utf8"));
const pyFrames = JSON.parse(readFileSync(join(WORK, "sse-frames.json"), "utf8"));
const manifest = {};

// ------------------------------------------------------------------ flattening

const IDENT = /^[A-Za-z_$][A-Za-z0-9_$-]*$/;
const joinKey = (path, key) =>
  IDENT.test(key) ? (path ? `${path}.${key}` : key) : `${path}[${JSON.stringify(key)}]`;
const def = (schema) => schema._zod.def;
const WRAPPERS = new Set(["optional", "nullable", "default", "prefault", "readonly", "catch", "nonoptional"]);
const JSON_TYPES = new Set(["any", "unknown", "custom"]);

function unwrap(schema) {
  for (;;) {
    const d = def(schema);
    if (WRAPPERS.has(d.type)) schema = d.innerType;
    else if (d.type === "pipe") schema = d.in;
    else return schema;
  }
}

function pickOption(schema, value) {
  const d = def(schema);
  if (d.discriminator) {
    for (const option of d.options) {
      const lit = def(unwrap(def(option).shape[d.discriminator]));
      if (lit.values.includes(value[d.discriminator])) return option;
    }
    throw new Error(`no union option for ${d.discriminator}=${value[d.discriminator]}`);
  }
  for (const option of d.options) if (option.safeParse(value).success) return option;
  throw new Error("no union option matches");
}

function walk(schema, value, path, out) {
  if (value === undefined) return;
  if (schema === S.JsonPatchSchema) {
    out[path] = value;
    return;
  }
  schema = unwrap(schema);
  const d = def(schema);
  if (schema === S.JsonPatchSchema || JSON_TYPES.has(d.type)) {
    out[path] = value;
    return;
  }
  switch (d.type) {
    case "object": {
      const before = Object.keys(out).length;
      for (const key of Object.keys(value)) {
        const here = joinKey(path, key);
        if (Object.prototype.hasOwnProperty.call(d.shape, key)) walk(d.shape[key], value[key], here, out);
        else if (value[key] !== undefined) out[here] = value[key];
      }
      if (Object.keys(out).length === before && path) out[path] = {};
      return;
    }
    case "array":
      if (value.length === 0) out[path] = [];
      value.forEach((item, i) => walk(d.element, item, `${path}[${i}]`, out));
      return;
    case "union":
      walk(pickOption(schema, value), value, path, out);
      return;
    default:
      out[path] = value;
  }
}

function flatten(schema, value) {
  const out = {};
  walk(schema, value, "", out);
  return out;
}

// ------------------------------------------------------------------ validation

function kindOf(rel) {
  const name = basename(rel);
  if (name.startsWith("capabilities")) return "AgentCapabilities";
  if (("/" + rel).includes("/events/") || name.startsWith("event-")) return "Event";
  return "RunAgentInput";
}

const SCHEMAS = {
  RunAgentInput: S.RunAgentInputSchema,
  AgentCapabilities: S.AgentCapabilitiesSchema,
  Event: S.EventSchema,
};

function issuePath(path) {
  let out = "";
  for (const key of path) out = typeof key === "number" ? `${out}[${key}]` : joinKey(out, String(key));
  return out;
}

function check(kind, text) {
  let data;
  try {
    data = JSON.parse(text);
  } catch (e) {
    return { ok: false, error: { path: "", code: "invalid_json", message: e.message } };
  }
  const result = SCHEMAS[kind].safeParse(data);
  if (!result.success) {
    const issue = result.error.issues[0];
    return { ok: false, error: { path: issuePath(issue.path), code: issue.code, message: issue.message } };
  }
  return { ok: true, data: result.data, flat: flatten(SCHEMAS[kind], result.data) };
}

// The data of every dispatched event of a text/event-stream, per the WHATWG SSE parsing rules.
function sseFrames(text) {
  if (text.startsWith("\ufeff")) text = text.slice(1);
  const lines = text.split(/\r\n|\n|\r/);
  if (lines.length && lines[lines.length - 1] === "") lines.pop();
  const frames = [];
  let data = null;
  for (const line of lines) {
    if (line === "") {
      if (data !== null) frames.push(data.endsWith("\n") ? data.slice(0, -1) : data);
      data = null;
      continue;
    }
    if (line.startsWith(":")) continue;
    const colon = line.indexOf(":");
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "data") data = (data ?? "") + value + "\n";
  }
  return frames; // an event not ended by a blank line is discarded
}

// ------------------------------------------------------------------ TypeScript-built documents

function emit(rel, text, description, kind) {
  const abs = join(REPO, rel);
  mkdirSync(dirname(abs), { recursive: true });
  writeFileSync(abs, text);
  manifest[rel] = { kind, built_by: "typescript", description };
}

function buildDoc(name, description, schema, kind, object) {
  const parsed = schema.parse(object);
  emit(`tests/conformance/accept/${name}.json`, JSON.stringify(parsed), description, kind);
}

// Real media bytes made by media.py (Node 20's zlib has no crc32 to build a PNG itself).
const MEDIA = JSON.parse(readFileSync(join(WORK, "media.json"), "utf8"));
const png4 = MEDIA.png4;
const weather = {
  type: "object",
  properties: { city: { type: "string" }, unit: { type: "string", enum: ["celsius", "fahrenheit"] } },
  required: ["city"],
};

buildDoc("ts-minimal", "Required fields only, parsed by the zod schema: the output gains the tools: [] and context: [] defaults.",
  S.RunAgentInputSchema, "RunAgentInput", { threadId: "thread-ts", runId: "run-ts", messages: [] });

buildDoc("ts-kitchen-sink",
  "Every role, part, source, tool-call field, tool, context, resume entry, state, forwardedProps and unknown fields, built by the TS schema (keys in schema order, extras last).",
  S.RunAgentInputSchema, "RunAgentInput", {
    "x-top": { kept: true },
    threadId: "thread-ts", runId: "run-ts-2", parentRunId: "run-ts-1", protocolVersion: "1.0",
    state: { step: 2, items: [{ id: 1, done: false }], empty: null },
    messages: [
      { id: "d", role: "developer", content: "Be brief.", name: "policy", encryptedValue: "e1", metadata: { a: 1 }, subagentRunId: "s1" },
      { id: "s", role: "system", content: "System prompt.", name: "sys", metadata: {} },
      { id: "u", role: "user", name: "ana", content: [
        { type: "text", text: "look", id: "p1", metadata: { lang: "en" } },
        { type: "image", source: { type: "data", value: png4, mimeType: "image/png" }, metadata: ["any", "kind"] },
        { type: "audio", source: { type: "url", value: "https://example.com/a.wav", mimeType: "audio/wav" } },
        { type: "video", id: "v", source: { type: "file", value: "file-v", provider: "gemini", mimeType: "video/mp4" } },
        { type: "document", source: { type: "url", value: `data:application/pdf;base64,${MEDIA.pdf}` }, "x-part": 1 },
      ], "x-msg": "extra" },
      { id: "a", role: "assistant", content: "Calling tools.", toolCalls: [
        { id: "c1", type: "function", function: { name: "get_weather", arguments: '{"city":"Lyon"}' }, metadata: { p: true }, encryptedValue: "e2" },
        { id: "c2", type: "function", function: { name: "noop", arguments: "{}" } },
      ] },
      { id: "t1", role: "tool", toolCallId: "c1", content: '{"tempC":21}', encryptedValue: "e3", metadata: { cached: true } },
      { id: "t2", role: "tool", toolCallId: "c2", content: [{ type: "text", text: "nothing" }], error: "no-op" },
      { id: "act", role: "activity", activityType: "PLAN", content: { steps: ["a", "b"] }, metadata: { ui: "card" } },
      { id: "r", role: "reasoning", content: "thinking", encryptedValue: "e4", subagentRunId: "s1" },
    ],
    tools: [
      { name: "get_weather", description: "Weather", parameters: weather, metadata: { ui: "compact" } },
      { name: "noop", description: "Does nothing" },
    ],
    context: [{ description: "tier", value: "gold" }],
    forwardedProps: { ui: "web", list: [1, 2] },
    resume: [
      { interruptId: "i1", status: "resolved", payload: { approved: true }, metadata: { sig: "x" } },
      { interruptId: "i2", status: "cancelled" },
    ],
  });

buildDoc("ts-numbers",
  "Numbers as JavaScript's JSON.stringify writes them: 1e+21, 1e-7, 5e-324, integers past 2^53 rounded to doubles (2^64 as 18446744073709552000), -0 as 0.",
  S.RunAgentInputSchema, "RunAgentInput", {
    threadId: "thread-ts-num", runId: "run-ts-num", messages: [],
    state: {
      exp21: 1e21, small: 1e-7, tiny: 5e-324, max: Number.MAX_VALUE, maxSafe: Number.MAX_SAFE_INTEGER,
      u64: 2 ** 64, sum: 0.1 + 0.2, negZero: -0, neg: -123.456, big: 1.2345678901234568e29, list: [0, -1, 1.5],
    },
    forwardedProps: 1e300,
  });

buildDoc("ts-escapes",
  "Strings as JSON.stringify escapes them: C0 controls as \\u00XX or short escapes, non-ASCII (emoji, combining marks, U+2028) left raw.",
  S.RunAgentInputSchema, "RunAgentInput", {
    threadId: "thread-ts-\u00e9", runId: "run-ts-esc",
    messages: [
      { id: "u1", role: "user", content: 'q " b \\ s / \b\f\n\r\t \u0000\u0001\u001f\u007f \u2028\u2029 😀 e\u0301 \ufeff' },
      { id: "u2", role: "user", content: "日本語 👨‍👩‍👧‍👦 🇯🇵" },
    ],
    state: { "k\"ey": "v\\al", "ctl\n": "\t" },
  });

buildDoc("capabilities-ts-full", "A full AgentCapabilities document built by the TS schema.",
  S.AgentCapabilitiesSchema, "AgentCapabilities", {
    identity: { name: "TS Agent", type: "mastra", description: "d", version: "1.0.0", provider: "p",
      documentationUrl: "https://example.com/docs", metadata: { k: "v" } },
    transport: { streaming: true, websocket: true, httpBinary: false, pushNotifications: true, resumable: false },
    tools: { supported: true, items: [{ name: "t", description: "d", parameters: weather }], parallelCalls: false, clientProvided: true },
    output: { structuredOutput: false, supportedMimeTypes: ["text/markdown"] },
    state: { snapshots: true, deltas: false, memory: true, persistentState: false },
    multiAgent: { supported: false, delegation: false, handoffs: true, subagents: [{ name: "helper", description: "h" }] },
    reasoning: { supported: false, streaming: false, encrypted: true },
    multimodal: { input: { image: false, audio: false, video: true, pdf: false, file: false }, output: { image: true, audio: false } },
    execution: { codeExecution: false, sandboxed: false, maxIterations: 3, maxExecutionTime: 1000 },
    humanInTheLoop: { supported: false, approvals: false, interventions: true, feedback: false, interrupts: false, approveWithEdits: false },
    custom: { anything: [null, 1, "x"] },
  });

// Every Python-built event, re-encoded by the TS encoder.
const eventFiles = Object.keys(pyManifest.manifest)
  .filter((rel) => rel.startsWith("tests/conformance/events/") && rel.endsWith(".json"));
const frameOrder = pyFrames["tests/conformance/events/all-events.python.sse"];
const encoder = new EventEncoder();
const tsStream = frameOrder
  .map((name) => {
    const text = readFileSync(join(REPO, "tests/conformance/events", `${name}.json`), "utf8");
    return encoder.encode(S.EventSchema.parse(JSON.parse(text)));
  })
  .join("");
emit("tests/conformance/events/all-events.typescript.sse", tsStream,
  "Every events/*.json event parsed by the TS schema and written by @ag-ui/encoder's EventEncoder (SSE).", "Event");
if (eventFiles.length !== frameOrder.length) throw new Error("event list mismatch");

// ------------------------------------------------------------------ validate everything

const allFiles = [...Object.keys(pyManifest.manifest), ...Object.keys(manifest)].sort();
const results = {};
for (const rel of allFiles) {
  const kind = (pyManifest.manifest[rel] ?? manifest[rel]).kind;
  const text = readFileSync(join(REPO, rel), "utf8");
  if (rel.endsWith(".sse")) {
    results[rel] = {
      frames: sseFrames(text).map((frame) => {
        const r = check("Event", frame);
        return r.ok ? { ok: true, flat: r.flat } : { ok: false, error: r.error };
      }),
    };
    continue;
  }
  const r = check(kind, text);
  results[rel] = r.ok ? { ok: true, flat: r.flat } : { ok: false, error: r.error };
}

const pkg = (name) => JSON.parse(readFileSync(join(HERE, "node_modules", name, "package.json"), "utf8"));
const versions = Object.fromEntries(
  ["@ag-ui/core", "@ag-ui/encoder", "@ag-ui/proto", "zod"].map((name) => [name, pkg(name).version]),
);
writeFileSync(join(WORK, "ts-results.json"), JSON.stringify({
  manifest,
  results,
  sseFrames: { "tests/conformance/events/all-events.typescript.sse": frameOrder },
  versions,
  nodeMajor: process.versions.node.split(".")[0],
  protocolVersion: S.PROTOCOL_VERSION,
}));
console.log(`typescript: ${Object.keys(manifest).length} documents built, ${allFiles.length} validated`);
