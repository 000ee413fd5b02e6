//! Documents our writer produces are accepted by the official SDKs: the Python
//! `ag-ui-protocol` (pydantic `model_validate_json`) and the TypeScript `@ag-ui/core` (zod
//! `RunAgentInputSchema.parse`), at the versions pinned in `tests/conformance/`.
//!
//! The SDKs are installed once into `target/tmp/sdk-accept/` (a Python venv and an npm
//! folder) and reused. Before an install the registry is checked once, with a short timeout
//! (`common/registry.rs`); when it cannot be reached (or `python3`/`node` is missing) the test
//! writes a `SKIPPED: ...` line that shows in the default output of `cargo test` (and that
//! `.ci/run` counts), and passes without checking; `AGUI_REQUIRE_SDKS=1` makes that a failure.

mod common;
#[path = "common/registry.rs"]
mod registry;

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use agui_wire::*;
use common::*;

/// Keep in step with tests/conformance/requirements.txt and package.json.
const PY_PINS: &[&str] = &[
    "ag-ui-protocol==1.0.0",
    "pydantic==2.14.4",
    "pydantic-core==2.50.5",
    "annotated-types==0.8.0",
    "typing-extensions==4.16.0",
    "typing-inspection==0.4.5",
];
const NPM_PINS: &[&str] = &["@ag-ui/core@1.0.0", "zod@3.25.76"];
const INSTALL_TIMEOUT: Duration = Duration::from_secs(420);
/// Per request of pip and npm, once the registry has answered a connection.
const FETCH_TIMEOUT_SECS: u64 = 30;
const CHECK_TIMEOUT: Duration = Duration::from_secs(180);

struct Outcome {
    ok: bool,
    output: String,
}

/// Runs a command with a deadline, capturing stdout and stderr.
fn run(cmd: &mut Command, timeout: Duration) -> Outcome {
    let child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn();
    let mut child = match child {
        Ok(c) => c,
        Err(e) => {
            return Outcome {
                ok: false,
                output: format!("could not start {cmd:?}: {e}"),
            };
        }
    };
    let mut stdout = child.stdout.take().unwrap();
    let mut stderr = child.stderr.take().unwrap();
    let out_thread = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = stdout.read_to_string(&mut s);
        s
    });
    let err_thread = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = stderr.read_to_string(&mut s);
        s
    });
    let start = Instant::now();
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break Some(status),
            Ok(None) if start.elapsed() > timeout => {
                let _ = child.kill();
                let _ = child.wait();
                break None;
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(50)),
            Err(_) => break None,
        }
    };
    let mut output = out_thread.join().unwrap_or_default();
    output.push_str(&err_thread.join().unwrap_or_default());
    match status {
        Some(s) => Outcome {
            ok: s.success(),
            output,
        },
        None => Outcome {
            ok: false,
            output: format!("timed out after {timeout:?} (network?)\n{output}"),
        },
    }
}

/// Whether an install failure looks like an unreachable registry.
fn looks_offline(output: &str) -> bool {
    let o = output.to_ascii_lowercase();
    [
        "timed out",
        "temporary failure in name resolution",
        "name or service not known",
        "network is unreachable",
        "failed to establish a new connection",
        "connection refused",
        "connection reset",
        "could not resolve",
        "enotfound",
        "eai_again",
        "econnrefused",
        "econnreset",
        "etimedout",
        "enetunreach",
        "no matching distribution found",
        "max retries exceeded",
        "proxyerror",
        "network request",
    ]
    .iter()
    .any(|p| o.contains(p))
}

enum Install {
    Ready(PathBuf),
    Skip(String),
}

fn install_python(dir: &Path) -> Install {
    let venv = dir.join("venv");
    let python = venv.join("bin/python");
    let marker = dir.join("python.installed");
    let want = PY_PINS.join("\n");
    if python.exists() && std::fs::read_to_string(&marker).ok().as_deref() == Some(&want) {
        return Install::Ready(python);
    }
    if let Err(why) = registry::reachable(registry::Registry::PyPi) {
        return Install::Skip(why);
    }
    let made = run(
        Command::new("python3").args(["-m", "venv"]).arg(&venv),
        INSTALL_TIMEOUT,
    );
    if !made.ok {
        return Install::Skip(format!(
            "cannot create a Python venv: {}",
            made.output.trim()
        ));
    }
    let pip = run(
        Command::new(&python)
            .args([
                "-m",
                "pip",
                "install",
                "--quiet",
                "--disable-pip-version-check",
                "--retries",
                "2",
            ])
            .args(["--timeout", &FETCH_TIMEOUT_SECS.to_string()])
            .args(PY_PINS),
        INSTALL_TIMEOUT,
    );
    if !pip.ok {
        if looks_offline(&pip.output) {
            return Install::Skip(format!("PyPI cannot be reached: {}", pip.output.trim()));
        }
        panic!("pip install failed:\n{}", pip.output);
    }
    std::fs::write(&marker, want).unwrap();
    Install::Ready(python)
}

fn install_node(dir: &Path) -> Install {
    let node_dir = dir.join("node");
    let marker = dir.join("node.installed");
    let want = NPM_PINS.join("\n");
    if node_dir.join("node_modules/@ag-ui/core").exists()
        && std::fs::read_to_string(&marker).ok().as_deref() == Some(&want)
    {
        return Install::Ready(node_dir);
    }
    if !run(Command::new("node").arg("--version"), CHECK_TIMEOUT).ok {
        return Install::Skip("node is not installed".into());
    }
    if let Err(why) = registry::reachable(registry::Registry::Npm) {
        return Install::Skip(why);
    }
    std::fs::create_dir_all(&node_dir).unwrap();
    std::fs::write(
        node_dir.join("package.json"),
        "{\"name\":\"agui-wire-sdk-accept\",\"private\":true}\n",
    )
    .unwrap();
    let npm = run(
        Command::new("npm")
            .current_dir(&node_dir)
            .args([
                "install",
                "--no-audit",
                "--no-fund",
                "--no-package-lock",
                "--loglevel=error",
                "--fetch-retries=2",
            ])
            .arg(format!("--fetch-timeout={}", FETCH_TIMEOUT_SECS * 1000))
            .args(NPM_PINS),
        INSTALL_TIMEOUT,
    );
    if !npm.ok {
        if looks_offline(&npm.output) {
            return Install::Skip(format!(
                "the npm registry cannot be reached: {}",
                npm.output.trim()
            ));
        }
        panic!("npm install failed:\n{}", npm.output);
    }
    std::fs::write(&marker, want).unwrap();
    Install::Ready(node_dir)
}

const PY_CHECK: &str = r#"
import json, sys
from ag_ui.core import RunAgentInput, AgentCapabilities
bad = {}
for path in sys.argv[1:]:
    cls = AgentCapabilities if "capabilities" in path.rsplit("/", 1)[-1] else RunAgentInput
    try:
        with open(path, "rb") as f:
            cls.model_validate_json(f.read())
    except Exception as e:
        bad[path] = str(e)[:800]
print(json.dumps({"checked": len(sys.argv) - 1, "bad": bad}))
"#;

const JS_CHECK: &str = r#"
import { readFileSync } from "node:fs";
import * as S from "@ag-ui/core/schemas";
const bad = {};
const files = process.argv.slice(2);
for (const path of files) {
  const schema = path.split("/").pop().includes("capabilities")
    ? S.AgentCapabilitiesSchema : S.RunAgentInputSchema;
  try {
    schema.parse(JSON.parse(readFileSync(path, "utf8")));
  } catch (e) {
    bad[path] = String(e.message ?? e).slice(0, 800);
  }
}
console.log(JSON.stringify({ checked: files.length, bad }));
"#;

/// The documents to check, written by our writer: (file name, bytes).
fn documents() -> Vec<(String, Vec<u8>)> {
    let mut docs = Vec::new();
    let arena = Bump::new();
    // Samples, written back.
    let sample = read("samples/conversation.json");
    let input = RunAgentInput::parse(&sample, &arena).unwrap();
    docs.push(("sample-conversation.json".into(), to_vec(&input)));
    let caps = read("samples/capabilities.json");
    let c = AgentCapabilities::parse(&caps, &arena).unwrap();
    docs.push(("sample-capabilities.json".into(), to_vec(&c)));
    // After edits.
    let mut edited = input.clone();
    edited.offload_media(|p, _| {
        Some(format!(
            "https://cdn.example.com/{}-{}.bin",
            p.message, p.part
        ))
    });
    edited.strip_encrypted_values();
    edited.remove_reasoning_messages();
    edited.set_state(RawJson::from_text(r#"{"edited":true,"n":[1,2.5,-3e2]}"#).unwrap());
    edited.set_forwarded_props(RawJson::from_text(r#"{"tenant":"acme"}"#).unwrap());
    edited.push_context(Context {
        description: Str::new("added by the proxy"),
        value: Str::new("line\nbreak \"quoted\""),
        ..Default::default()
    });
    edited.push_tool(Tool {
        name: Str::new("proxy_tool"),
        description: Some(Str::new("added")),
        parameters: Some(RawJson::from_text(r#"{"type":"object","properties":{}}"#).unwrap()),
        ..Default::default()
    });
    edited.remove_tools(|t| t.name == "nonexistent");
    edited.push_message(Message::User(UserMessage {
        id: Str::new("proxy-msg"),
        content: Content::Parts(List::from(vec![
            InputContent::Text(TextInputContent {
                text: Str::new("appended"),
                ..Default::default()
            }),
            InputContent::Document(MediaInputContent {
                source: InputContentSource::File(FileSource {
                    value: Str::new("file-1"),
                    provider: Some(Str::new("openai")),
                    ..Default::default()
                }),
                ..Default::default()
            }),
        ])),
        ..Default::default()
    }));
    if edited.messages.len() > 1 {
        let m = edited.messages[0].clone();
        edited.replace_message(1, m).unwrap();
    }
    docs.push(("edited-conversation.json".into(), to_vec(&edited)));
    // The conformance corpus (minus the legacy `binary` part, which the 1.0 SDKs reject).
    for (name, bytes) in corpus() {
        if name.contains("binary") {
            continue;
        }
        let out = if is_capabilities(&name) {
            to_vec(&AgentCapabilities::parse(&bytes, &arena).unwrap())
        } else {
            to_vec(&RunAgentInput::parse(&bytes, &arena).unwrap())
        };
        docs.push((format!("corpus-{name}"), out));
    }
    // Generated documents: every role, part and source type, unknown fields, escapes.
    let mode = Mode {
        canonical: false,
        sdk: true,
        shuffle: true,
    };
    let mut g = Gen::new(2024, mode);
    for n in 0..80 {
        let doc = g.document();
        let input = RunAgentInput::parse(doc.as_bytes(), &arena).unwrap();
        docs.push((format!("generated-{n:03}.json"), to_vec(&input)));
    }
    docs
}

fn parse_report(output: &str) -> (usize, Vec<(String, String)>) {
    let line = output
        .lines()
        .rev()
        .find(|l| l.starts_with('{'))
        .unwrap_or_else(|| panic!("no report from the checker:\n{output}"));
    let v: serde_json::Value = serde_json::from_str(line).unwrap();
    let checked = v["checked"].as_u64().unwrap_or(0) as usize;
    let bad = v["bad"]
        .as_object()
        .map(|m| {
            m.iter()
                .map(|(k, v)| (k.clone(), v.as_str().unwrap_or("").to_string()))
                .collect()
        })
        .unwrap_or_default();
    (checked, bad)
}

#[test]
fn sdks_accept_what_we_write() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("sdk-accept");
    std::fs::create_dir_all(&dir).unwrap();
    let docs_dir = dir.join("docs");
    let _ = std::fs::remove_dir_all(&docs_dir);
    std::fs::create_dir_all(&docs_dir).unwrap();
    let mut paths = Vec::new();
    for (name, bytes) in documents() {
        let p = docs_dir.join(name);
        std::fs::write(&p, bytes).unwrap();
        paths.push(p);
    }
    // A negative control: both SDKs must reject it, or the harness checks nothing.
    let control = docs_dir.join("control-missing-run-id.json");
    std::fs::write(&control, br#"{"threadId":"t","messages":[]}"#).unwrap();
    paths.push(control.clone());
    let control = control.to_string_lossy().into_owned();
    let only_control = |bad: &[(String, String)]| bad.len() == 1 && bad[0].0 == control;

    let mut checked_any = false;
    match install_python(&dir) {
        Install::Skip(why) => registry::skip(
            "sdk_accept (Python SDK)",
            &format!("{why}; nothing checked against the Python SDK"),
        ),
        Install::Ready(python) => {
            let script = dir.join("check.py");
            std::fs::write(&script, PY_CHECK).unwrap();
            let out = run(
                Command::new(python).arg(&script).args(&paths),
                CHECK_TIMEOUT,
            );
            assert!(out.ok, "the Python checker failed:\n{}", out.output);
            let (checked, bad) = parse_report(&out.output);
            assert_eq!(checked, paths.len());
            assert!(only_control(&bad), "rejected by the Python SDK: {bad:#?}");
            eprintln!("Python SDK accepted all {} documents", checked - 1);
            checked_any = true;
        }
    }
    match install_node(&dir) {
        Install::Skip(why) => registry::skip(
            "sdk_accept (TypeScript SDK)",
            &format!("{why}; nothing checked against the TypeScript SDK"),
        ),
        Install::Ready(node_dir) => {
            let script = node_dir.join("check.mjs");
            std::fs::write(&script, JS_CHECK).unwrap();
            let out = run(
                Command::new("node")
                    .current_dir(&node_dir)
                    .arg(&script)
                    .args(&paths),
                CHECK_TIMEOUT,
            );
            assert!(out.ok, "the TypeScript checker failed:\n{}", out.output);
            let (checked, bad) = parse_report(&out.output);
            assert_eq!(checked, paths.len());
            assert!(
                only_control(&bad),
                "rejected by the TypeScript SDK: {bad:#?}"
            );
            eprintln!("TypeScript SDK accepted all {} documents", checked - 1);
            checked_any = true;
        }
    }
    if !checked_any {
        eprintln!("no SDK could be installed; nothing was checked");
    }
}
