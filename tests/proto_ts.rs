//! Checked against the official implementation: `@ag-ui/proto` 1.0.0 (with `@ag-ui/core`
//! 1.0.0), installed from npm into `target/tmp/proto-ts/` once and reused.
//!
//! For every event of the corpus (tests/conformance/events and samples/run.sse):
//! - the official encoder's bytes, decoded by us, give exactly the event the official
//!   decoder gives for them;
//! - our bytes, decoded by the official decoder, give that same event.
//!
//! When npm or node is missing or the registry cannot be reached, the test says why and
//! passes without checking.

mod proto_corpus;

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use agui_wire::proto::*;

const NPM_PINS: &[&str] = &["@ag-ui/proto@1.0.0", "@ag-ui/core@1.0.0"];

fn run(cmd: &mut Command, timeout: Duration) -> (bool, String) {
    let child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn();
    let mut child = match child {
        Ok(c) => c,
        Err(e) => return (false, format!("could not start {cmd:?}: {e}")),
    };
    let mut so = child.stdout.take().unwrap();
    let mut se = child.stderr.take().unwrap();
    let t1 = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = so.read_to_string(&mut s);
        s
    });
    let t2 = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = se.read_to_string(&mut s);
        s
    });
    let start = Instant::now();
    let status = loop {
        if let Ok(Some(st)) = child.try_wait() {
            break Some(st);
        }
        if start.elapsed() > timeout {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let out = t1.join().unwrap_or_default();
    let err = t2.join().unwrap_or_default();
    match status {
        Some(st) => (st.success(), format!("{out}{err}")),
        None => (false, format!("timed out after {timeout:?}\n{out}{err}")),
    }
}

fn install(dir: &Path) -> Result<PathBuf, String> {
    let marker = dir.join("installed");
    let want = NPM_PINS.join("\n");
    if dir.join("node_modules/@ag-ui/proto").exists()
        && std::fs::read_to_string(&marker).ok().as_deref() == Some(&want)
    {
        return Ok(dir.to_path_buf());
    }
    if !run(
        Command::new("node").arg("--version"),
        Duration::from_secs(30),
    )
    .0
    {
        return Err("node is not installed".into());
    }
    std::fs::create_dir_all(dir).unwrap();
    std::fs::write(
        dir.join("package.json"),
        "{\"name\":\"agui-wire-proto-ts\",\"private\":true}\n",
    )
    .unwrap();
    let (ok, out) = run(
        Command::new("npm")
            .current_dir(dir)
            .args([
                "install",
                "--no-audit",
                "--no-fund",
                "--no-package-lock",
                "--loglevel=error",
            ])
            .args(NPM_PINS),
        Duration::from_secs(300),
    );
    if !ok {
        return Err(format!(
            "npm install failed (registry unreachable?): {}",
            out.trim()
        ));
    }
    std::fs::write(&marker, want).unwrap();
    Ok(dir.to_path_buf())
}

const NODE: &str = r#"
process.env.SUPPRESS_TRANSFORMATION_WARNINGS = "1";
const fs = require("fs");
const { encode, decode } = require("@ag-ui/proto");
const items = JSON.parse(fs.readFileSync(process.argv[2], "utf8"));
const hex = (b) => Buffer.from(b).toString("hex");
const unhex = (h) => new Uint8Array(Buffer.from(h, "hex"));
const out = items.map((it) => {
  const r = { name: it.name };
  try {
    const bytes = encode(JSON.parse(it.json));
    r.ts_hex = hex(bytes);
    r.ts_decoded = decode(bytes);
  } catch (e) { r.ts_error = String(e); }
  try { r.ours_decoded = decode(unhex(it.ours_hex)); } catch (e) { r.ours_error = String(e); }
  return r;
});
fs.writeFileSync(process.argv[3], JSON.stringify(out));
"#;

fn same(a: &serde_json::Value, b: &serde_json::Value) -> bool {
    use serde_json::Value::*;
    match (a, b) {
        (Object(x), Object(y)) => {
            x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| same(v, w)))
        }
        (Array(x), Array(y)) => x.len() == y.len() && x.iter().zip(y).all(|(v, w)| same(v, w)),
        (Number(x), Number(y)) => x.as_f64() == y.as_f64(),
        _ => a == b,
    }
}

fn unhex(s: &str) -> Vec<u8> {
    (0..s.len() / 2)
        .map(|i| u8::from_str_radix(&s[2 * i..2 * i + 2], 16).unwrap())
        .collect()
}

#[test]
fn official_decoder_and_ours_agree_both_ways() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/tmp/proto-ts");
    let dir = match install(&dir) {
        Ok(d) => d,
        Err(why) => {
            eprintln!("SKIPPED proto_ts: {why}");
            return;
        }
    };
    let corpus = proto_corpus::corpus();
    let opts = EncodeOptions {
        on_loss: OnLoss::Report,
        ..EncodeOptions::default()
    };
    let mut items = Vec::new();
    for (name, json) in &corpus {
        let mut frame = Vec::new();
        encode_json(json, &mut frame, &opts).unwrap();
        let hex: String = frame[4..].iter().map(|b| format!("{b:02x}")).collect();
        items.push(serde_json::json!({
            "name": name, "json": String::from_utf8_lossy(json), "ours_hex": hex }));
    }
    let input = dir.join("items.json");
    let output = dir.join("results.json");
    std::fs::write(&input, serde_json::to_vec(&items).unwrap()).unwrap();
    std::fs::write(dir.join("check.cjs"), NODE).unwrap();
    let (ok, out) = run(
        Command::new("node")
            .current_dir(&dir)
            .arg("check.cjs")
            .arg(&input)
            .arg(&output),
        Duration::from_secs(120),
    );
    assert!(ok, "node failed: {out}");
    let results: Vec<serde_json::Value> =
        serde_json::from_slice(&std::fs::read(&output).unwrap()).unwrap();
    let (mut checked, mut identical, mut ts_refused) = (0, 0, 0);
    let mut failures = Vec::new();
    for (r, item) in results.iter().zip(&items) {
        let name = r["name"].as_str().unwrap();
        let Some(ts_hex) = r["ts_hex"].as_str() else {
            ts_refused += 1;
            eprintln!("official encoder refused {name}: {}", r["ts_error"]);
            continue;
        };
        let expected = &r["ts_decoded"];
        // 1. Their bytes, our decoder.
        let bytes = unhex(ts_hex);
        match ProtoEvent::decode(&bytes).and_then(|e| e.to_json(&DecodeOptions::default())) {
            Ok(json) => {
                let ours: serde_json::Value = serde_json::from_str(&json).unwrap();
                if !same(&ours, expected) {
                    failures.push(format!("{name}: we decode their bytes as\n  {ours}\nthey decode them as\n  {expected}"));
                }
            }
            Err(e) => failures.push(format!("{name}: we cannot decode their bytes: {e}")),
        }
        // 2. Our bytes, their decoder.
        match r.get("ours_decoded") {
            Some(d) if !d.is_null() => {
                if !same(d, expected) {
                    failures.push(format!(
                        "{name}: they decode our bytes as\n  {d}\nand their own as\n  {expected}"
                    ));
                }
            }
            _ => failures.push(format!(
                "{name}: they cannot decode our bytes: {}",
                r["ours_error"]
            )),
        }
        if item["ours_hex"].as_str() == Some(ts_hex) {
            identical += 1;
        }
        checked += 1;
    }
    println!(
        "{checked} events checked both ways, {identical} byte-identical frames, {ts_refused} refused by the official encoder"
    );
    assert!(
        failures.is_empty(),
        "{} disagreements:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(checked > 100);
    assert_eq!(
        identical, checked,
        "frames that differ from the official encoder's bytes"
    );
}
