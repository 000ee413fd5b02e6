//! The `agui-wire` binary on the samples: what the README's first commands
//! (`cargo run --bin agui-wire -- inspect samples/conversation.json`, `validate ...`) do.
//!
//! Exit codes: 0 valid, 1 invalid (`error: <what> at <path> (byte <offset>)` on stderr),
//! 2 usage or I/O errors.

#[path = "common/sdk_corpus.rs"]
mod common;

use std::path::Path;
use std::process::{Command, Output};

use common::{J, Kind, documents, expected_of, join, kind_of, read_j, root};

/// Runs the binary from the crate root, as the README's commands are typed.
fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_agui-wire"))
        .args(args)
        .current_dir(root())
        .output()
        .expect("the binary runs")
}

fn code(out: &Output) -> i32 {
    out.status.code().expect("exited, not killed")
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// `error: <what> at <path> (byte <offset>)`, split into its parts.
fn error_line(stderr: &str) -> (String, String, usize) {
    let line = stderr.trim_end();
    assert_eq!(line.lines().count(), 1, "one line on stderr: {stderr:?}");
    let rest = line
        .strip_prefix("error: ")
        .unwrap_or_else(|| panic!("no `error: ` prefix: {line:?}"));
    let (rest, offset) = rest
        .strip_suffix(')')
        .and_then(|r| r.rsplit_once(" (byte "))
        .unwrap_or_else(|| panic!("no `(byte N)` suffix: {line:?}"));
    let (what, path) = rest
        .rsplit_once(" at ")
        .unwrap_or_else(|| panic!("no ` at <path>`: {line:?}"));
    let path = if path == "the document root" {
        ""
    } else {
        path
    };
    (
        what.to_string(),
        path.to_string(),
        offset.parse().expect("a byte offset"),
    )
}

#[test]
fn readme_first_command_inspects_the_conversation() {
    let out = run(&["inspect", "samples/conversation.json"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("threadId:   th_7f3c2a9e-travel"), "{text}");
    assert!(text.contains("messages:   15 ("), "{text}");
    assert!(text.contains("messages[10].content[1]"), "{text}");
    assert!(out.stderr.is_empty());
}

/// Every `cargo run ... --bin agui-wire -- ARGS` line of the README runs and exits 0, and every
/// `$ agui-wire ARGS` transcript in it prints what the README shows.
#[test]
fn readme_commands_do_what_the_readme_says() {
    let readme = std::fs::read_to_string(root().join("README.md")).expect("README.md");
    let lines: Vec<&str> = readme.lines().collect();
    let mut ran = 0;
    for (i, line) in lines.iter().enumerate() {
        if let Some((_, rest)) = line.split_once("--bin agui-wire -- ") {
            let args: Vec<&str> = rest
                .split('#')
                .next()
                .unwrap_or("")
                .split_whitespace()
                .collect();
            let out = run(&args);
            assert_eq!(
                code(&out),
                0,
                "README line {}: {line}: {}",
                i + 1,
                stderr(&out)
            );
            ran += 1;
        }
        if let Some(rest) = line.strip_prefix("$ agui-wire ") {
            let args: Vec<&str> = rest.split_whitespace().collect();
            let shown: Vec<&str> = lines[i + 1..]
                .iter()
                .take_while(|l| !l.starts_with("```") && !l.starts_with("$ "))
                .copied()
                .collect();
            let out = run(&args);
            let printed = format!("{}{}", stdout(&out), stderr(&out));
            assert_eq!(
                printed.trim_end().lines().collect::<Vec<_>>(),
                shown,
                "README line {}: {line}",
                i + 1
            );
            ran += 1;
        }
    }
    assert!(ran >= 2, "only {ran} README commands found");
}

#[test]
fn valid_samples_validate() {
    for args in [
        &["validate", "samples/conversation.json"][..],
        &["validate", "samples/conversation.compact.json"],
        &["validate", "--kind", "input", "samples/conversation.json"],
        &[
            "validate",
            "--kind",
            "capabilities",
            "samples/capabilities.json",
        ],
        &[
            "validate",
            "--kind=capabilities",
            "samples/capabilities.json",
        ],
        &["validate", "--lenient", "samples/conversation.compact.json"],
        // The pre-1.0 binary part: both 1.0 SDKs reject it, we read it by design.
        &["validate", "samples/legacy-binary-part.json"],
    ] {
        let out = run(args);
        assert_eq!(code(&out), 0, "{args:?}: {}", stderr(&out));
        assert!(out.stderr.is_empty() && out.stdout.is_empty(), "{args:?}");
    }
}

#[test]
fn standard_input() {
    let bytes = std::fs::read(root().join("samples/conversation.compact.json")).unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_agui-wire"))
        .args(["validate", "-"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    {
        use std::io::Write;
        let mut stdin = child.stdin.take().unwrap();
        stdin.write_all(&bytes).unwrap();
    }
    let out = child.wait_with_output().unwrap();
    assert_eq!(code(&out), 0, "{}", stderr(&out));
}

/// Each invalid sample exits 1 with one `error: ... at <path> (byte N)` line, and the path is
/// the one its expected file names (a missing field: the object that lacks it, plus the field;
/// a document that is not JSON, `path: ""`: any path).
#[test]
fn invalid_samples_exit_1_at_their_path() {
    let files = documents(&root().join("samples/invalid"));
    assert!(files.len() >= 5, "{files:?}");
    for file in files {
        let rel = file
            .strip_prefix(root())
            .unwrap()
            .to_str()
            .unwrap()
            .to_string();
        let exp = read_j(&expected_of(&file));
        let expected_path = exp
            .get("path")
            .and_then(J::as_str)
            .unwrap_or("")
            .to_string();
        let kind = kind_of(&file);
        let kind_arg = match kind {
            Kind::AgentCapabilities => "capabilities",
            // The CLI has no event kind yet: an event sample is checked for the exit code and
            // the error format only (it is not a RunAgentInput either).
            Kind::RunAgentInput | Kind::Event => "input",
        };
        let out = run(&["validate", "--kind", kind_arg, &rel]);
        assert_eq!(code(&out), 1, "{rel}: {}", stderr(&out));
        assert!(out.stdout.is_empty(), "{rel}");
        let (what, path, offset) = error_line(&stderr(&out));
        let len = std::fs::metadata(&file).unwrap().len() as usize;
        assert!(offset <= len, "{rel}: offset {offset} past {len}");
        // The reported path is the path of the reported byte.
        let bytes = std::fs::read(&file).unwrap();
        assert_eq!(agui_wire::json_path_at(&bytes, offset), path, "{rel}");
        if kind == Kind::Event {
            continue;
        }
        let missing = what
            .strip_prefix("missing required field `")
            .and_then(|f| f.strip_suffix('`'));
        let ok = path == expected_path
            || missing.is_some_and(|f| join(&path, f) == expected_path)
            || expected_path.is_empty();
        assert!(
            ok,
            "{rel}: we say {what:?} at {path:?}, expected {expected_path:?}"
        );
        // Python accepts `null` in optional fields: so does --lenient.
        if exp.get("python").and_then(J::as_str) == Some("accepts") {
            let out = run(&["validate", "--lenient", "--kind", kind_arg, &rel]);
            assert_eq!(code(&out), 0, "{rel} --lenient: {}", stderr(&out));
        }
    }
}

/// Usage errors exit 2 with one `error:` line and one `hint:` line (no usage dump); I/O errors
/// exit 2 with one `error:` line.
#[test]
fn usage_errors_exit_2() {
    let cases: &[&[&str]] = &[
        &["frobnicate", "samples/conversation.json"],
        &["validate"],
        &[
            "validate",
            "samples/conversation.json",
            "samples/capabilities.json",
        ],
        &["validate", "--bogus", "samples/conversation.json"],
        &["validate", "--kind", "event", "samples/conversation.json"],
        &["validate", "samples/conversation.json", "--kind"],
        &["inspect"],
        &["extract", "samples/conversation.json"],
        &["offload", "--out", "x", "samples/conversation.json"],
    ];
    for args in cases {
        let out = run(args);
        assert_eq!(code(&out), 2, "{args:?}: {}", stderr(&out));
        let err = stderr(&out);
        let lines: Vec<&str> = err.lines().collect();
        assert_eq!(lines.len(), 2, "{args:?}: {err}");
        assert!(lines[0].starts_with("error: "), "{args:?}: {err}");
        assert!(lines[1].starts_with("hint: "), "{args:?}: {err}");
        assert!(lines[1].contains("--help"), "{args:?}: {err}");
        assert!(out.stdout.is_empty(), "{args:?}");
    }
    // A near miss is named.
    let out = run(&["validate", "--stric", "samples/conversation.json"]);
    assert!(stderr(&out).contains("'--strict'"), "{}", stderr(&out));
    // I/O errors: one line, no usage.
    for args in [
        &["validate", "samples/no-such-file.json"][..],
        &["inspect", "samples/no-such-file.json"],
        &["write", "samples/no-such-file.json"],
        &["events", "samples/no-such-file.json"],
    ] {
        let out = run(args);
        assert_eq!(code(&out), 2, "{args:?}: {}", stderr(&out));
        assert_eq!(
            stderr(&out).lines().collect::<Vec<_>>(),
            [
                "error: cannot read samples/no-such-file.json: No such file or directory (os error 2)"
            ],
            "{args:?}"
        );
    }
    // No arguments: the help, on stderr, exit 2.
    let out = run(&[]);
    assert_eq!(code(&out), 2);
    assert!(stderr(&out).contains("Usage: agui-wire <COMMAND>"));
}

/// `--help` on every command (with an example), `help COMMAND`, `--version`, completions.
#[test]
fn help_version_and_completions() {
    let out = run(&["--help"]);
    assert_eq!(code(&out), 0);
    let top = stdout(&out);
    assert!(top.contains("Usage: agui-wire <COMMAND>"), "{top}");
    for command in [
        "validate",
        "inspect",
        "write",
        "extract",
        "offload",
        "events",
        "completions",
    ] {
        assert!(top.contains(&format!("\n  {command} ")), "{command}: {top}");
        for args in [&[command, "--help"][..], &["help", command]] {
            let out = run(args);
            assert_eq!(code(&out), 0, "{args:?}");
            let text = stdout(&out);
            assert!(
                text.contains(&format!("Usage: agui-wire {command}")),
                "{args:?}: {text}"
            );
            assert!(
                text.contains(&format!("Examples:\n  agui-wire {command} ")),
                "{args:?}: {text}"
            );
        }
    }
    let out = run(&["--version"]);
    assert_eq!(code(&out), 0);
    assert_eq!(
        stdout(&out),
        format!("agui-wire {}\n", env!("CARGO_PKG_VERSION"))
    );
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let out = run(&["completions", shell]);
        assert_eq!(code(&out), 0, "{shell}");
        assert!(stdout(&out).contains("validate"), "{shell}");
    }
}

/// What `inspect --json` must say about a RunAgentInput sample.
struct Summary {
    messages: usize,
    /// Messages per role, every role listed.
    roles: Vec<(String, u64)>,
    /// Content parts: path, type, mime type.
    parts: Vec<(String, String, Option<String>)>,
}

/// The [`Summary`] of a sample, worked out from the file with serde_json (independently of
/// our parser).
fn expected_summary(file: &Path) -> Summary {
    let doc: serde_json::Value =
        serde_json::from_slice(&std::fs::read(file).unwrap()).expect("valid JSON");
    let messages = doc["messages"].as_array().expect("messages");
    let mut roles: Vec<(String, u64)> = [
        "developer",
        "system",
        "assistant",
        "user",
        "tool",
        "activity",
        "reasoning",
    ]
    .iter()
    .map(|r| (r.to_string(), 0))
    .collect();
    let mut parts = Vec::new();
    for (i, m) in messages.iter().enumerate() {
        let role = m["role"].as_str().expect("a role");
        roles
            .iter_mut()
            .find(|(r, _)| r == role)
            .expect("a known role")
            .1 += 1;
        let Some(list) = m["content"].as_array() else {
            continue;
        };
        if !matches!(role, "user" | "tool") {
            continue;
        }
        for (j, p) in list.iter().enumerate() {
            let mime = p["source"]["mimeType"]
                .as_str()
                .or(p["mimeType"].as_str())
                .map(str::to_string);
            parts.push((
                format!("messages[{i}].content[{j}]"),
                p["type"].as_str().expect("a part type").to_string(),
                mime,
            ));
        }
    }
    Summary {
        messages: messages.len(),
        roles,
        parts,
    }
}

#[test]
fn inspect_json_reports_roles_and_parts() {
    for sample in [
        "samples/conversation.json",
        "samples/conversation.compact.json",
        "samples/legacy-binary-part.json",
    ] {
        let out = run(&["inspect", "--json", sample]);
        assert_eq!(code(&out), 0, "{sample}: {}", stderr(&out));
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
            panic!(
                "{sample}: inspect --json is not JSON ({e}): {}",
                stdout(&out)
            )
        });
        let file = root().join(sample);
        let Summary {
            messages: n,
            roles,
            parts,
        } = expected_summary(&file);
        assert_eq!(v["messages"], n as u64, "{sample}");
        for (role, count) in &roles {
            assert_eq!(v["messagesByRole"][role], *count, "{sample}: {role}");
        }
        assert_eq!(
            v["messagesByRole"].as_object().unwrap().len(),
            7,
            "{sample}: every role is listed"
        );
        let got = v["contentParts"].as_array().expect("contentParts");
        assert_eq!(got.len(), parts.len(), "{sample}: {got:?}");
        for (g, (path, kind, mime)) in got.iter().zip(&parts) {
            assert_eq!(g["path"], path.as_str(), "{sample}");
            assert_eq!(g["type"], kind.as_str(), "{sample} {path}");
            assert_eq!(g["mimeType"].as_str(), mime.as_deref(), "{sample} {path}");
        }
        assert_eq!(v["threadId"], "th_7f3c2a9e-travel");
        assert_eq!(v["bytes"], std::fs::metadata(&file).unwrap().len());
    }
    // The legacy sample carries the PNG as a binary part with inline data.
    let out = run(&["inspect", "--json", "samples/legacy-binary-part.json"]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let binary: Vec<_> = v["contentParts"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| p["type"] == "binary")
        .collect();
    assert_eq!(binary.len(), 1, "{v}");
    assert_eq!(binary[0]["sourceType"], "data");
    assert_eq!(binary[0]["mimeType"], "image/png");
}

#[test]
fn inspect_rejects_like_validate() {
    let out = run(&["inspect", "--json", "samples/invalid/metadata-null.json"]);
    assert_eq!(code(&out), 1, "{}", stderr(&out));
    let (_, path, _) = error_line(&stderr(&out));
    assert_eq!(path, "messages[2].metadata");
    let out = run(&[
        "inspect",
        "--json",
        "--lenient",
        "samples/invalid/metadata-null.json",
    ]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(
        v["rawFieldBytes"].get("messages[2].metadata").is_none(),
        "{v}"
    );
}
