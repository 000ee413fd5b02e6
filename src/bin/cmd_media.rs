//! `agui-wire extract`, the media decoder behind `offload`, and the media columns of
//! `inspect` and `validate --strict`.

use std::path::Path;

use agui_wire::media::{MediaView, check_media, media_parts};
use agui_wire::{Bump, InputContentSource, RunAgentInput};

use crate::{Failure, InputArgs};

/// Decodes a source's inline bytes (a data source or a `data:` URL) for `offload`.
pub(crate) fn decode_source(
    source: &InputContentSource<'_>,
) -> Result<(Vec<u8>, Option<String>), String> {
    let part = agui_wire::InputContent::Image(agui_wire::MediaInputContent {
        source: source.clone(),
        ..Default::default()
    });
    let arena = Bump::new();
    let view = MediaView::of(&part, b"", &arena)
        .ok_or("not a media part")?
        .map_err(|e| e.to_string())?;
    let bytes = view
        .decode_to_vec()
        .map_err(|e| e.to_string())?
        .ok_or("the bytes are not inline")?;
    let sniffed = view.sniff().map(|t| t.mime().to_string());
    Ok((bytes, sniffed.or(view.mime_type().map(str::to_string))))
}

/// The file name for the part at `path` (`messages[3].content[1]` → `messages.3.content.1.png`).
fn file_name(path: &str, ext: &str) -> String {
    let stem: String = path
        .chars()
        .map(|c| if c == '[' || c == ']' { '.' } else { c })
        .collect::<String>()
        .split('.')
        .filter(|s| !s.is_empty())
        .collect::<Vec<_>>()
        .join(".");
    format!("{stem}.{ext}")
}

/// Write every inline media part of a RunAgentInput to a file of its own
///
/// Each file is named after the part's JSON path (`messages[10].content[1]` becomes
/// `messages.10.content.1.png`); one line per file on standard output (path, mime type, size,
/// file).
#[derive(clap::Args)]
#[command(after_help = "\
Examples:
  agui-wire extract --out media samples/conversation.json")]
pub(crate) struct Extract {
    /// The directory to write the files into (created if needed)
    #[arg(long, value_name = "DIR")]
    out: String,
    #[command(flatten)]
    input: InputArgs,
}

/// `agui-wire extract`: every inline media part to a file of its own.
pub(crate) fn extract(args: Extract) -> Result<(), Failure> {
    let dir = args.out;
    let bytes = args.input.read()?;
    let arena = Bump::new();
    let input = RunAgentInput::parse_with(&bytes, &arena, &args.input.options())?;
    std::fs::create_dir_all(&dir).map_err(|e| Failure::Io(format!("cannot create {dir}: {e}")))?;
    let mut count = 0;
    for (path, view) in media_parts(&input, &bytes, &arena) {
        let view =
            view.map_err(|e| Failure::Invalid(format!("{e} at {path} (byte {})", e.doc_offset())))?;
        if !view.is_inline() {
            continue;
        }
        let data = view
            .decode_to_vec()
            .map_err(|e| Failure::Invalid(format!("{e} at {path} (byte {})", e.doc_offset())))?
            .unwrap_or_default();
        let sniffed = view.sniff();
        let ext = match view.mime_type() {
            Some(m) => crate::cmd_write::extension(Some(m)),
            None => sniffed.map_or("bin".to_string(), |t| t.extension().to_string()),
        };
        let name = file_name(&path, &ext);
        let file = Path::new(&dir).join(&name);
        std::fs::write(&file, &data)
            .map_err(|e| Failure::Io(format!("cannot write {}: {e}", file.display())))?;
        println!(
            "{path}\t{}\t{} bytes\t{}",
            view.mime_type().unwrap_or("-"),
            data.len(),
            file.display()
        );
        count += 1;
    }
    eprintln!("extracted {count} media part(s) to {dir}");
    Ok(())
}

/// One media part as `inspect` reports it: JSON path, decoded size (or why it cannot be
/// decoded), detected format.
pub(crate) type MediaDetail = (String, Result<Option<usize>, String>, Option<&'static str>);

/// Decoded size and detected format of each media part, by JSON path, for `inspect`.
pub(crate) fn media_details(
    input: &RunAgentInput<'_>,
    doc: &[u8],
    arena: &Bump,
) -> Vec<MediaDetail> {
    media_parts(input, doc, arena)
        .map(|(path, view)| match view {
            Ok(v) => {
                let len = v.decoded_len().map_err(|e| e.to_string());
                (path, len, v.sniff().map(|t| t.mime()))
            }
            Err(e) => (path, Err(e.to_string()), None),
        })
        .collect()
}

/// `validate --strict`: media payload errors fail the document; mime mismatches warn.
pub(crate) fn strict_media(input: &RunAgentInput<'_>, doc: &[u8]) -> Result<(), Failure> {
    let arena = Bump::new();
    let findings = check_media(input, doc, &arena);
    let mut first_error = None;
    for f in findings {
        match f.severity {
            agui_wire::media::Severity::Warning => eprintln!("{f}"),
            agui_wire::media::Severity::Error => {
                if first_error.is_none() {
                    first_error = Some(format!("{} at {} (byte {})", f.message, f.path, f.offset));
                }
            }
        }
    }
    match first_error {
        Some(e) => Err(Failure::Invalid(e)),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_names_follow_the_json_path() {
        assert_eq!(
            file_name("messages[10].content[2]", "pdf"),
            "messages.10.content.2.pdf"
        );
    }
}
