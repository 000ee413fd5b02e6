// Applies AG-UI event streams with the official TypeScript client (@ag-ui/client) and prints
// the messages and state it ends with, for agui-wire's reducer test (tests/reducer_ts.rs).
//
// stdin: [{"name": "...", "events": [<event object>, ...]}, ...]
// stdout: [{"name": "...", "messages": [...], "state": ...}
//          | {"name": "...", "error": "<message>", "index": <event index or null>}, ...]
//
// Each stream runs through `AbstractAgent.runAgent`, i.e. the client's own pipeline: the
// compatibility middleware, enforcement, chunk expansion (transformChunks), verifyEvents and
// defaultApplyEvents, starting from a fresh agent (no messages, state {}).
import { AbstractAgent } from "@ag-ui/client";
import { Observable } from "rxjs";

process.env.SUPPRESS_TRANSFORMATION_WARNINGS = "1";
const warnings = [];
console.warn = (...args) => warnings.push(args.map(String).join(" "));
console.error = () => {};
console.debug = () => {};

class Replay extends AbstractAgent {
  constructor(events) {
    super({ threadId: "thread-replay" });
    this.events = events;
    this.failedAt = null;
  }
  run() {
    return new Observable((subscriber) => {
      for (let i = 0; i < this.events.length; i++) {
        subscriber.next(structuredClone(this.events[i]));
        if (subscriber.closed) {
          this.failedAt = i;
          return;
        }
      }
      subscriber.complete();
    });
  }
}

let input = "";
for await (const chunk of process.stdin) input += chunk;
const streams = JSON.parse(input);
const results = [];
for (const { name, events } of streams) {
  warnings.length = 0;
  const agent = new Replay(events);
  try {
    await agent.runAgent();
    results.push({ name, messages: agent.messages, state: agent.state ?? null, warnings: warnings.length });
  } catch (error) {
    results.push({ name, error: String(error && error.message ? error.message : error), index: agent.failedAt });
  }
}
process.stdout.write(JSON.stringify(results));
