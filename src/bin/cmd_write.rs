//! `agui-wire write` and `agui-wire offload`.
//!
//! `write` parses the document and writes it to standard output as compact JSON (no trailing
//! newline, so a compact input comes out byte for byte). `offload` writes every inline media
//! part of a RunAgentInput (a `data` source, or a `url` source holding a `data:` URL) to a file
//! in DIR and writes the document with those parts turned into `url` sources pointing at
//! `URL/<file name>`; it reports what it did on standard error.

use std::io::{self, Write as _};
use std::path::Path;

use agui_wire::{AgentCapabilities, InputContentSource, RunAgentInput};

use crate::{Failure, InputArgs, Kind};

/// Parse a document and write it to standard output as compact JSON
///
/// A document that is already compact comes out byte for byte (no trailing newline). Without
/// `--kind`, a RunAgentInput is tried first, then an AgentCapabilities document.
#[derive(clap::Args)]
#[command(after_help = "\
Examples:
  agui-wire write samples/conversation.json > conversation.compact.json
  agui-wire write --kind capabilities samples/capabilities.json")]
pub(crate) struct Write {
    /// Which document FILE holds (default: whichever parses)
    #[arg(long, value_enum)]
    kind: Option<Kind>,
    #[command(flatten)]
    input: InputArgs,
}

/// Move inline media out of a RunAgentInput into files, pointing at them by URL
///
/// Writes every inline media part (a `data` source, or a `url` source holding a `data:` URL)
/// to a file in DIR, named after its JSON path as `extract` names it, and prints the document
/// with those parts turned into `url` sources at `URL/<file name>`. A summary goes to standard
/// error.
#[derive(clap::Args)]
#[command(after_help = "\
Examples:
  agui-wire offload --out media --base-url https://cdn.example.com/media \\
    samples/conversation.json > conversation.small.json")]
pub(crate) struct Offload {
    /// The directory to write the files into (created if needed)
    #[arg(long, value_name = "DIR")]
    out: String,
    /// The URL the files will be served under
    #[arg(long, value_name = "URL")]
    base_url: String,
    #[command(flatten)]
    input: InputArgs,
}

/// Decodes the bytes of an inline source (base64 of a `data` source, or a `data:` URL),
/// giving the bytes and, when it knows it, the media type.
pub(crate) type Decoder = fn(&InputContentSource<'_>) -> Result<(Vec<u8>, Option<String>), String>;

fn io_failure(e: std::io::Error) -> Failure {
    Failure::Io(format!("cannot write the output: {e}"))
}

/// `agui-wire write`: to standard output.
pub(crate) fn write(args: Write) -> Result<(), Failure> {
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    write_into(&args, &mut out)?;
    out.flush().map_err(io_failure)
}

/// `agui-wire write` into `out`.
pub(crate) fn write_into(args: &Write, out: &mut dyn io::Write) -> Result<(), Failure> {
    let bytes = args.input.read()?;
    let opts = args.input.options();
    let arena = agui_wire::Bump::new();
    match args.kind {
        Some(Kind::Input) => {
            let doc = RunAgentInput::parse_with(&bytes, &arena, &opts)?;
            agui_wire::write_to(&doc, out).map_err(io_failure)
        }
        Some(Kind::Capabilities) => {
            let doc = AgentCapabilities::parse_with(&bytes, &arena, &opts)?;
            agui_wire::write_to(&doc, out).map_err(io_failure)
        }
        // Either kind: a RunAgentInput, else an AgentCapabilities document (every field of
        // which is optional), reporting the RunAgentInput error when neither fits.
        None => match RunAgentInput::parse_with(&bytes, &arena, &opts) {
            Ok(doc) => agui_wire::write_to(&doc, out).map_err(io_failure),
            Err(e) => match AgentCapabilities::parse_with(&bytes, &arena, &opts) {
                Ok(caps) if looks_like_capabilities(&caps) => {
                    agui_wire::write_to(&caps, out).map_err(io_failure)
                }
                _ => Err(e.into()),
            },
        },
    }
}

/// Whether a document read as capabilities has at least one known group (so that a broken
/// RunAgentInput is not silently taken for capabilities made only of unknown fields).
fn looks_like_capabilities(c: &AgentCapabilities<'_>) -> bool {
    c.identity.is_some()
        || c.transport.is_some()
        || c.tools.is_some()
        || c.output.is_some()
        || c.state.is_some()
        || c.multi_agent.is_some()
        || c.reasoning.is_some()
        || c.multimodal.is_some()
        || c.execution.is_some()
        || c.human_in_the_loop.is_some()
        || c.custom.is_some()
        || c.extra.fields().is_empty()
}

/// `agui-wire offload`: the document to standard output, a summary to standard error.
pub(crate) fn offload(args: Offload, decode: Decoder) -> Result<(), Failure> {
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let summary = offload_into(&args, decode, &mut out)?;
    out.flush().map_err(io_failure)?;
    eprintln!("{summary}");
    Ok(())
}

/// File-name extension for a media type.
pub(crate) fn extension(mime: Option<&str>) -> String {
    let Some(mime) = mime else {
        return "bin".into();
    };
    let essence = mime
        .split(';')
        .next()
        .unwrap_or("")
        .trim()
        .to_ascii_lowercase();
    let known = match essence.as_str() {
        "image/png" => "png",
        "image/jpeg" | "image/jpg" => "jpg",
        "image/gif" => "gif",
        "image/webp" => "webp",
        "image/svg+xml" => "svg",
        "image/heic" => "heic",
        "audio/wav" | "audio/x-wav" | "audio/wave" => "wav",
        "audio/mpeg" | "audio/mp3" => "mp3",
        "audio/ogg" => "ogg",
        "audio/flac" => "flac",
        "audio/webm" => "weba",
        "video/mp4" => "mp4",
        "video/webm" => "webm",
        "video/quicktime" => "mov",
        "application/pdf" => "pdf",
        "text/plain" => "txt",
        "application/json" => "json",
        _ => "",
    };
    if !known.is_empty() {
        return known.into();
    }
    let sub: String = essence
        .rsplit('/')
        .next()
        .unwrap_or("")
        .chars()
        .filter(|c| c.is_ascii_alphanumeric())
        .take(8)
        .collect();
    if sub.is_empty() { "bin".into() } else { sub }
}

/// `agui-wire offload` into `out`; returns the summary line.
pub(crate) fn offload_into(
    args: &Offload,
    decode: Decoder,
    out: &mut dyn io::Write,
) -> Result<String, Failure> {
    let dir = args.out.as_str();
    let base = args.base_url.trim_end_matches('/');
    let bytes = args.input.read()?;
    let opts = args.input.options();
    let arena = agui_wire::Bump::new();
    let mut doc = RunAgentInput::parse_with(&bytes, &arena, &opts)?;
    std::fs::create_dir_all(dir).map_err(|e| Failure::Io(format!("cannot create {dir}: {e}")))?;
    let mut failure: Option<Failure> = None;
    let mut written = 0u64;
    let n = doc.offload_media(|path, media| {
        if failure.is_some() {
            return None;
        }
        let (data, sniffed) = match decode(&media.source) {
            Ok(v) => v,
            Err(e) => {
                failure = Some(Failure::Invalid(format!(
                    "cannot decode the media at {path}: {e}"
                )));
                return None;
            }
        };
        let declared = media.source.mime_type().map(|m| m.unescaped().into_owned());
        let ext = extension(declared.as_deref().or(sniffed.as_deref()));
        let name = format!("m{}-p{}.{ext}", path.message, path.part);
        let file = Path::new(&dir).join(&name);
        if let Err(e) = std::fs::write(&file, &data) {
            failure = Some(Failure::Io(format!("cannot write {}: {e}", file.display())));
            return None;
        }
        written += data.len() as u64;
        Some(format!("{base}/{name}"))
    });
    if let Some(f) = failure {
        return Err(f);
    }
    agui_wire::write_to(&doc, out).map_err(io_failure)?;
    Ok(format!(
        "offloaded {n} media part(s), {written} bytes, to {dir}"
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn input(file: &str) -> InputArgs {
        InputArgs {
            file: file.to_string(),
            lenient: false,
        }
    }

    fn args(kind: Option<Kind>, file: &str) -> Write {
        Write {
            kind,
            input: input(file),
        }
    }

    fn sample(name: &str) -> String {
        format!("{}/samples/{name}", env!("CARGO_MANIFEST_DIR"))
    }

    #[test]
    fn write_is_byte_exact_for_compact_input() {
        let path = sample("conversation.compact.json");
        let mut out = Vec::new();
        assert!(write_into(&args(None, &path), &mut out).is_ok());
        assert_eq!(out, std::fs::read(&path).unwrap());
        let mut pretty = Vec::new();
        assert!(write_into(&args(None, &sample("conversation.json")), &mut pretty).is_ok());
        assert_eq!(pretty, out);
    }

    #[test]
    fn write_reads_capabilities() {
        let mut out = Vec::new();
        assert!(write_into(&args(None, &sample("capabilities.json")), &mut out).is_ok());
        assert!(out.starts_with(b"{\"identity\":"));
        let mut again = Vec::new();
        assert!(
            write_into(
                &args(Some(Kind::Capabilities), &sample("capabilities.json")),
                &mut again
            )
            .is_ok()
        );
        assert_eq!(again, out);
    }

    #[test]
    fn write_reports_invalid_input() {
        let dir = std::env::temp_dir().join(format!("agui-wire-write-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let bad = dir.join("bad.json");
        std::fs::write(&bad, br#"{"threadId":"t","messages":[]}"#).unwrap();
        let mut out = Vec::new();
        match write_into(&args(None, bad.to_str().unwrap()), &mut out) {
            Err(Failure::Invalid(msg)) => assert!(msg.contains("runId"), "{msg}"),
            _ => panic!("expected an invalid-input failure"),
        }
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// A stand-in decoder: the raw base64 text as the "bytes".
    fn fake_decode(source: &InputContentSource<'_>) -> Result<(Vec<u8>, Option<String>), String> {
        Ok((source.value().raw().as_bytes().to_vec(), None))
    }

    #[test]
    fn offload_writes_files_and_urls() {
        let dir = std::env::temp_dir().join(format!("agui-wire-offload-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let mut out = Vec::new();
        let summary = match offload_into(
            &Offload {
                out: dir.to_str().unwrap().to_string(),
                base_url: "https://cdn.example.com/media/".to_string(),
                input: input(&sample("conversation.json")),
            },
            fake_decode,
            &mut out,
        ) {
            Ok(s) => s,
            Err(_) => panic!("offload failed"),
        };
        assert!(summary.starts_with("offloaded "), "{summary}");
        let arena = agui_wire::Bump::new();
        let doc = RunAgentInput::parse(&out, &arena).unwrap();
        let mut urls = 0;
        for m in doc.messages.iter() {
            for p in m.parts() {
                if let Some(InputContentSource::Url(u)) = p.as_media().map(|m| &m.source) {
                    let url = u.value.unescaped();
                    if let Some(name) = url.strip_prefix("https://cdn.example.com/media/") {
                        assert!(dir.join(name).exists(), "{name} not written");
                        urls += 1;
                    }
                }
            }
        }
        assert!(urls >= 2, "the sample has two inline parts");
        assert!(dir.join("m0-p0.png").exists() || urls > 0);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn extensions() {
        assert_eq!(extension(Some("image/png")), "png");
        assert_eq!(extension(Some("Application/PDF; x=1")), "pdf");
        assert_eq!(extension(Some("model/gltf+json")), "gltfjson");
        assert_eq!(extension(None), "bin");
    }
}
