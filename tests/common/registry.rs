//! For the tests that install the official SDKs: whether a package registry can be reached
//! (asked once per registry and test process, before any install, through the registry's own
//! client with a short timeout and no retries, so that its proxy and certificate settings
//! count), and how such a test reports that it checked nothing.
//!
//! A skip is written as one `SKIPPED: <test>: <why>` line straight to the process's standard
//! error, past libtest's output capture, so it shows in the default output of `cargo test`;
//! `.ci/run` counts these lines in its closing `N passed, N failed, N skipped` line. With
//! `AGUI_REQUIRE_SDKS=1` in the environment a skip fails the test instead.

#![allow(dead_code)] // each test uses part of it

use std::collections::HashMap;
use std::io::{Read, Write};
use std::process::{Command, Stdio};
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant};

/// The client's own timeout per request, in seconds.
const CLIENT_TIMEOUT_SECS: u64 = 5;
/// The deadline for the whole check (the client's start-up included).
const CHECK_DEADLINE: Duration = Duration::from_secs(30);

/// A package registry the tests install from.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Registry {
    /// PyPI, through pip.
    PyPi,
    /// The npm registry, through npm.
    Npm,
}

impl Registry {
    fn name(self) -> &'static str {
        match self {
            Registry::PyPi => "PyPI",
            Registry::Npm => "the npm registry",
        }
    }

    /// One cheap request through the client: pip lists the versions of `pip` on its index,
    /// npm pings its registry.
    fn probe(self) -> Command {
        match self {
            Registry::PyPi => {
                let mut c = Command::new("python3");
                c.args([
                    "-m",
                    "pip",
                    "index",
                    "versions",
                    "pip",
                    "--disable-pip-version-check",
                    "--retries",
                    "0",
                    "--timeout",
                ])
                .arg(CLIENT_TIMEOUT_SECS.to_string());
                c
            }
            Registry::Npm => {
                let mut c = Command::new("npm");
                c.args(["ping", "--fetch-retries=0"])
                    .arg(format!("--fetch-timeout={}", CLIENT_TIMEOUT_SECS * 1000));
                c
            }
        }
    }
}

/// `Ok` if the registry answers its client within a few seconds; else why not (the client's
/// first error line). Asked once per registry per test process.
pub fn reachable(registry: Registry) -> Result<(), String> {
    static SEEN: OnceLock<Mutex<HashMap<Registry, Result<(), String>>>> = OnceLock::new();
    let seen = SEEN.get_or_init(|| Mutex::new(HashMap::new()));
    let mut seen = seen.lock().unwrap_or_else(|e| e.into_inner());
    seen.entry(registry)
        .or_insert_with(|| {
            probe(registry.probe())
                .map_err(|e| format!("{} cannot be reached: {e}", registry.name()))
        })
        .clone()
}

/// Runs the probe with a deadline; `Err` with its most telling output line if it fails.
fn probe(mut cmd: Command) -> Result<(), String> {
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot start {:?}: {e}", cmd.get_program()))?;
    let mut stderr = child.stderr.take().expect("piped");
    let reader = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = stderr.read_to_string(&mut s);
        s
    });
    let start = Instant::now();
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break Some(status),
            Ok(None) if start.elapsed() > CHECK_DEADLINE => {
                let _ = child.kill();
                let _ = child.wait();
                break None;
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(50)),
            Err(_) => break None,
        }
    };
    let output = reader.join().unwrap_or_default();
    match status {
        Some(s) if s.success() => Ok(()),
        Some(_) => {
            // The client's error, and the warning that says why (pip: a retry, a certificate).
            let lines: Vec<&str> = output
                .lines()
                .map(str::trim)
                .filter(|l| !l.is_empty() && !l.contains("experimental"))
                .collect();
            let error = lines
                .iter()
                .find(|l| l.starts_with("ERROR") || l.starts_with("npm error"))
                .or(lines.first())
                .copied()
                .unwrap_or("the client failed without a message");
            let why = lines.iter().find(|l| l.starts_with("WARNING"));
            let line = match why {
                Some(why) => format!("{error} ({why})"),
                None => error.to_string(),
            };
            Err(line.chars().take(200).collect())
        }
        None => Err(format!("no answer within {CHECK_DEADLINE:?}")),
    }
}

/// Reports that `test` checked nothing, and why: a `SKIPPED:` line on the real standard error
/// (visible without `--nocapture`), or a failure under `AGUI_REQUIRE_SDKS=1`.
pub fn skip(test: &str, why: &str) {
    let why = why.lines().next().unwrap_or("").trim();
    if std::env::var("AGUI_REQUIRE_SDKS").is_ok_and(|v| v == "1") {
        panic!("{test} checked nothing ({why}), and AGUI_REQUIRE_SDKS=1 forbids a skip");
    }
    // Written to the handle, not through `eprintln!`, which libtest captures.
    let line = format!("SKIPPED: {test}: {why}\n");
    let _ = std::io::stderr().lock().write_all(line.as_bytes());
}
