//! After warm-up with a reused arena, parsing allocates nothing on the global heap.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::thread::LocalKey;

struct Counting;

thread_local! {
    // Only the test's own thread is counted, into its own counters: libtest's main thread may
    // allocate meanwhile (its "running for over 60 seconds" notice on a loaded machine), and
    // the two tests run in parallel, one of them allocating on purpose (a boxed event).
    static COUNTING: Cell<bool> = const { Cell::new(false) };
    /// Allocations and reallocations.
    static ALLOCS: Cell<usize> = const { Cell::new(0) };
    /// Fresh allocations only (not `realloc`) and frees, to check that nothing leaks.
    static FRESH: Cell<usize> = const { Cell::new(0) };
    static FREES: Cell<usize> = const { Cell::new(0) };
}

fn counting() -> bool {
    // `try_with`: during thread teardown the slot may be gone; nothing is counted then.
    COUNTING.try_with(Cell::get).unwrap_or(false)
}

/// Adds one to this thread's `counter` (nothing during thread teardown).
fn bump(counter: &'static LocalKey<Cell<usize>>) {
    let _ = counter.try_with(|c| c.set(c.get() + 1));
}

/// This thread's `counter`.
fn get(counter: &'static LocalKey<Cell<usize>>) -> usize {
    counter.with(Cell::get)
}

/// Sets this thread's `counter` to zero.
fn reset(counter: &'static LocalKey<Cell<usize>>) {
    counter.with(|c| c.set(0));
}

// SAFETY: every method forwards to `System` with the caller's arguments unchanged; the counter
// is a side effect that cannot affect the allocation.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if counting() {
            bump(&ALLOCS);
            bump(&FRESH);
        }
        // SAFETY: forwarded as is; the caller upholds `GlobalAlloc::alloc`'s contract.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        if counting() {
            bump(&FREES);
        }
        // SAFETY: `ptr` was returned by `System.alloc` with this layout (via `alloc` above).
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if counting() {
            bump(&ALLOCS);
        }
        // SAFETY: forwarded as is; `ptr`/`layout` come from this allocator.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

fn corpus() -> Vec<Vec<u8>> {
    let mut docs = Vec::new();
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/samples");
    for name in ["conversation.json", "conversation.compact.json"] {
        if let Ok(b) = std::fs::read(format!("{dir}/{name}")) {
            docs.push(b);
        }
    }
    // A generated document: every role, parts, unknown fields in odd places, escapes.
    let mut s = String::from(r#"{"x-trace":"abc","threadId":"t","runId":"r","messages":["#);
    for i in 0..200 {
        if i > 0 {
            s.push(',');
        }
        s.push_str(&match i % 5 {
            0 => format!(r#"{{"role":"user","id":"u{i}","content":[{{"type":"text","text":"hi \"there\" \u00e9"}},{{"source":{{"value":"QUJD","type":"data","mimeType":"image/png"}},"type":"image","x":{{"y":[1,2]}}}}]}}"#),
            1 => format!(r#"{{"id":"a{i}","role":"assistant","content":"ok","toolCalls":[{{"id":"c","type":"function","function":{{"name":"f","arguments":"{{\"a\":1}}"}}}}],"unknown":true}}"#),
            2 => format!(r#"{{"id":"t{i}","role":"tool","toolCallId":"c","content":"r","metadata":{{"k":null}}}}"#),
            3 => format!(r#"{{"id":"s{i}","role":"system","content":"be nice"}}"#),
            _ => format!(r#"{{"id":"x{i}","role":"activity","activityType":"PLAN","content":{{"s":[1,{{"d":2}}]}}}}"#),
        });
    }
    s.push_str(r#"],"tools":[{"name":"f","description":"d","parameters":{"type":"object"}}],"state":{"a":[1,2,3]},"context":[{"description":"d","value":"v"}]}"#);
    docs.push(s.into_bytes());
    docs
}

#[test]
fn parsing_with_a_reused_arena_allocates_nothing() {
    let docs = corpus();
    let mut arena = agui_wire::Bump::new();
    // Warm up: let the arena grow to fit the largest document.
    for _ in 0..2 {
        for d in &docs {
            arena.reset();
            agui_wire::RunAgentInput::parse(d, &arena).expect("valid");
        }
    }
    reset(&ALLOCS);
    COUNTING.with(|c| c.set(true));
    let mut messages = 0;
    for _ in 0..5 {
        for d in &docs {
            arena.reset();
            let input = agui_wire::RunAgentInput::parse(d, &arena).expect("valid");
            messages += input.messages.len();
        }
    }
    COUNTING.with(|c| c.set(false));
    assert!(messages > 1000);
    assert_eq!(get(&ALLOCS), 0, "heap allocations during parsing");
}

/// Events: nothing allocated per event with a reused arena, except what must be (the boxed
/// `input` of `RUN_STARTED`, and errors), and everything allocated is freed again, on every
/// path out of the parser (success, an error while reading, a missing field found last).
#[test]
fn events_allocate_nothing_and_leak_nothing() {
    let run = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/samples/run.sse"))
        .expect("samples/run.sse");
    let mut plain: Vec<String> = run
        .lines()
        .filter_map(|l| l.strip_prefix("data: "))
        .map(String::from)
        .collect();
    assert!(plain.len() > 30);
    plain.push(r#"{"x":1,"delta":"a\nb","type":"TEXT_MESSAGE_CONTENT","messageId":"m"}"#.into());
    plain.push(r#"{"type":"THINKING_START","x":[1,{"y":2}]}"#.into());
    // The `TOOL_CALL_RESULT` template, `role` first (its wire order is a constant).
    plain.push(r#"{"type":"TOOL_CALL_RESULT","messageId":"t","toolCallId":"c","role":"tool","content":"x"}"#.into());
    let input = r#""input":{"threadId":"t","runId":"r","messages":[{"id":"u","role":"user","content":"hi"}]}"#;
    let boxed = [
        format!(r#"{{"type":"RUN_STARTED","threadId":"t","runId":"r",{input}}}"#),
        // `input` read, then a missing required field found when the event is built.
        format!(r#"{{"type":"RUN_STARTED","threadId":"t",{input}}}"#),
        // `input` read, then a syntax error.
        format!(r#"{{"type":"RUN_STARTED",{input},"threadId":}}"#),
        // `input` read before `type`.
        format!(r#"{{{input},"type":"RUN_STARTED","runId":"r"}}"#),
    ];
    let failing = [
        r#"{"type":"TOOL_CALL_ARGS","toolCallId":"c"}"#,
        r#"{"type":"TEXT_MESSAGE_CONTENT","messageId":1,"delta":"x"}"#,
        r#"{"messageId":"m","delta":"x"}"#,
        r#"{"type":"STATE_DELTA","delta":[{"op":"add","path":"x","value":1}]}"#,
    ];
    let mut arena = agui_wire::Bump::new();
    // Each document by value, then into a slot. With `held`, the slot first holds the
    // document before, which it then drops (two documents in the arena at once, so only where
    // allocations are allowed: the arena may grow).
    let parse_all = |arena: &mut agui_wire::Bump, docs: &[String], oks: &mut usize, held| {
        let options = agui_wire::ParseOptions::default();
        for (i, d) in docs.iter().enumerate() {
            arena.reset();
            let by_value = agui_wire::Event::parse(d.as_bytes(), arena).is_ok();
            arena.reset();
            let mut slot = agui_wire::EventSlot::new();
            if held && i > 0 {
                let _ = slot.parse(docs[i - 1].as_bytes(), arena, &options);
            }
            assert_eq!(slot.parse(d.as_bytes(), arena, &options).is_ok(), by_value);
            drop(slot);
            if by_value {
                *oks += 1;
            }
        }
    };
    let failing: Vec<String> = failing.iter().map(|s| s.to_string()).collect();
    let mut oks = 0;
    for docs in [&plain[..], &boxed[..], &failing[..]] {
        parse_all(&mut arena, docs, &mut oks, false);
    }
    // Plain events: no allocation at all.
    reset(&ALLOCS);
    COUNTING.with(|c| c.set(true));
    let mut oks = 0;
    for _ in 0..3 {
        parse_all(&mut arena, &plain, &mut oks, false);
    }
    COUNTING.with(|c| c.set(false));
    assert_eq!(oks, 3 * plain.len(), "every sample event parses");
    assert_eq!(get(&ALLOCS), 0, "heap allocations per event");
    // Boxed inputs and errors: what is allocated is freed.
    reset(&FRESH);
    reset(&FREES);
    COUNTING.with(|c| c.set(true));
    let mut oks = 0;
    for _ in 0..3 {
        parse_all(&mut arena, &boxed, &mut oks, true);
        parse_all(&mut arena, &failing, &mut oks, true);
    }
    COUNTING.with(|c| c.set(false));
    assert_eq!(oks, 3, "one RUN_STARTED with input is valid");
    let (allocs, frees) = (get(&FRESH), get(&FREES));
    assert!(
        allocs >= 3 * (boxed.len() + failing.len()),
        "{allocs} allocations"
    );
    assert_eq!(allocs, frees, "every allocation freed");
}
