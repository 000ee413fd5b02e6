//! The media commands of the CLI (`extract`, `offload`, `inspect`, `validate --strict`) and the
//! media views over parsed documents.

use std::path::PathBuf;
use std::process::Command;

use agui_wire::media::{MediaLocation, MediaView, Severity, check_media, media_parts};
use agui_wire::{Bump, InputContentSource, Message, RunAgentInput};
use base64::Engine as _;

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_agui-wire"))
}

fn sample(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("samples")
        .join(name)
}

fn tmp(name: &str) -> PathBuf {
    let d = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&d);
    d
}

/// The data sources of the sample, decoded by the `base64` crate (the reference).
fn sample_payloads() -> Vec<(String, Vec<u8>)> {
    let bytes = std::fs::read(sample("conversation.json")).unwrap();
    let arena = Bump::new();
    let input = RunAgentInput::parse(&bytes, &arena).unwrap();
    let mut out = Vec::new();
    for (i, m) in input.messages.iter().enumerate() {
        for (j, p) in m.parts().iter().enumerate() {
            if let Some(InputContentSource::Data(d)) = p.as_media().map(|m| &m.source) {
                let decoded = base64::engine::general_purpose::STANDARD
                    .decode(d.value.unescaped().as_bytes())
                    .unwrap();
                out.push((format!("messages.{i}.content.{j}"), decoded));
            }
        }
    }
    assert!(out.len() >= 2, "the sample carries an image and a PDF");
    out
}

#[test]
fn extract_writes_each_inline_part() {
    let dir = tmp("extract");
    let out = bin()
        .args(["extract"])
        .arg(sample("conversation.json"))
        .arg("--out")
        .arg(&dir)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let listing = String::from_utf8(out.stdout).unwrap();
    for (stem, want) in sample_payloads() {
        let file = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .find(|p| p.file_stem().unwrap().to_str().unwrap() == stem)
            .unwrap_or_else(|| panic!("no file for {stem}"));
        assert_eq!(std::fs::read(&file).unwrap(), want);
        assert!(listing.contains(&format!("{} bytes", want.len())));
    }
    assert!(dir.join("messages.10.content.1.png").exists());
    assert!(dir.join("messages.10.content.2.pdf").exists());
}

#[test]
fn offload_turns_inline_parts_into_urls() {
    let dir = tmp("offload");
    let out = bin()
        .arg("offload")
        .arg(sample("conversation.json"))
        .arg("--out")
        .arg(&dir)
        .args(["--base-url", "https://cdn.example.com/media/"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let arena = Bump::new();
    let doc = RunAgentInput::parse(&out.stdout, &arena).unwrap();
    let mut urls = Vec::new();
    for m in doc.messages.iter() {
        for p in m.parts() {
            if let Some(media) = p.as_media() {
                assert!(
                    !matches!(media.source, InputContentSource::Data(_)),
                    "still inline"
                );
                if let InputContentSource::Url(u) = &media.source {
                    urls.push(u.value.unescaped().into_owned());
                }
            }
        }
    }
    let payloads = sample_payloads();
    let offloaded: Vec<&String> = urls
        .iter()
        .filter(|u| u.starts_with("https://cdn.example.com/media/"))
        .collect();
    assert_eq!(offloaded.len(), payloads.len());
    for (url, (path, want)) in offloaded.iter().zip(&payloads) {
        let name = url.rsplit('/').next().unwrap();
        assert_eq!(&std::fs::read(dir.join(name)).unwrap(), want);
        // Named after the JSON path, as `extract` names it.
        assert!(name.starts_with(&format!("{path}.")), "{name} for {path}");
    }
    // `extract` writes the same files, under the same names.
    let extracted = tmp("offload-extract");
    let out = bin()
        .arg("extract")
        .arg(sample("conversation.json"))
        .arg("--out")
        .arg(&extracted)
        .output()
        .unwrap();
    assert!(out.status.success());
    let list = |d: &PathBuf| {
        let mut names: Vec<_> = std::fs::read_dir(d)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        names.sort();
        names
    };
    assert_eq!(list(&dir), list(&extracted));
    assert_eq!(list(&dir).len(), payloads.len());
    for name in list(&dir) {
        assert_eq!(
            std::fs::read(dir.join(&name)).unwrap(),
            std::fs::read(extracted.join(&name)).unwrap()
        );
    }
}

#[test]
fn inspect_reports_decoded_sizes_and_formats() {
    let out = bin()
        .args(["inspect", "--json"])
        .arg(sample("conversation.json"))
        .output()
        .unwrap();
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let parts = v["contentParts"].as_array().unwrap();
    let png = parts
        .iter()
        .find(|p| p["mimeType"] == "image/png" && p["sourceType"] == "data")
        .unwrap();
    let payloads = sample_payloads();
    assert_eq!(png["decodedBytes"], payloads[0].1.len());
    assert_eq!(png["detectedType"], "image/png");
    let pdf = parts
        .iter()
        .find(|p| p["mimeType"] == "application/pdf")
        .unwrap();
    assert_eq!(pdf["detectedType"], "application/pdf");
}

fn one_part(source: &str) -> String {
    format!(
        r#"{{"threadId":"t","runId":"r","messages":[{{"id":"u","role":"user","content":[{{"type":"image","source":{source}}}]}}]}}"#
    )
}

#[test]
fn validate_strict_checks_payloads_and_mime_types() {
    let dir = tmp("strict");
    std::fs::create_dir_all(&dir).unwrap();
    let bad = one_part(r#"{"type":"data","value":"iVBORw0K!!!=","mimeType":"image/png"}"#);
    let f = dir.join("bad.json");
    std::fs::write(&f, &bad).unwrap();
    // Without --strict the payload is not decoded: the document is valid.
    assert!(bin().arg("validate").arg(&f).status().unwrap().success());
    let out = bin()
        .args(["validate", "--strict"])
        .arg(&f)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8(out.stderr).unwrap();
    let at = bad.find("!!!").unwrap();
    assert!(
        err.contains(&format!("at messages[0].content[0] (byte {at})")),
        "{err}"
    );

    // A PDF declared as PNG: valid, with a warning.
    let mismatch = one_part(r#"{"type":"data","value":"JVBERi0xLjQK","mimeType":"image/png"}"#);
    let f = dir.join("mismatch.json");
    std::fs::write(&f, &mismatch).unwrap();
    let out = bin()
        .args(["validate", "--strict"])
        .arg(&f)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.starts_with(
            "warning: declared mimeType image/png but the bytes look like application/pdf"
        ),
        "{err}"
    );
}

#[test]
fn views_of_every_media_shape() {
    let doc = br#"{"threadId":"t","runId":"r","messages":[{"id":"u","role":"user","content":[
      {"type":"image","source":{"type":"data","value":"iVBORw0KGgo=","mimeType":"image/png"}},
      {"type":"audio","source":{"type":"url","value":"data:audio/wav;base64,UklGRg=="}},
      {"type":"video","source":{"type":"url","value":"https://example.com/v.mp4","mimeType":"video/mp4"}},
      {"type":"document","source":{"type":"file","value":"file-9","provider":"openai","mimeType":"application/pdf"}},
      {"type":"binary","mimeType":"application/pdf","data":"JVBERi0xLjQ\/"},
      {"type":"document","source":{"type":"url","value":"data:text/plain,hello%20world"}},
      {"type":"text","text":"not media"}]}]}"#;
    let arena = Bump::new();
    let input = RunAgentInput::parse(doc, &arena).unwrap();
    let views: Vec<(String, MediaView<'_>)> = media_parts(&input, doc, &arena)
        .map(|(p, v)| (p, v.unwrap()))
        .collect();
    assert_eq!(views.len(), 6, "the text part is not media");
    // data source: inline, its offset is the payload's place in the document.
    let b = views[0].1.inline().unwrap();
    assert_eq!(
        b.doc_offset(),
        doc.windows(4).position(|w| w == b"iVBO").unwrap()
    );
    assert_eq!(
        views[0].1.decode_to_vec().unwrap().unwrap(),
        b"\x89PNG\r\n\x1a\n"
    );
    // data: URL: mime type from the URL when the source has none.
    assert!(matches!(views[1].1.location, MediaLocation::DataUrl(_)));
    assert_eq!(views[1].1.mime_type(), Some("audio/wav"));
    assert_eq!(views[1].1.decode_to_vec().unwrap().unwrap(), b"RIFF");
    // External URL and provider file: nothing inline.
    assert!(matches!(
        views[2].1.location,
        MediaLocation::Url("https://example.com/v.mp4")
    ));
    assert_eq!(views[2].1.decoded_len().unwrap(), None);
    assert!(matches!(
        views[3].1.location,
        MediaLocation::File {
            id: "file-9",
            provider: Some("openai")
        }
    ));
    // Legacy binary part with an escaped slash in its base64.
    assert_eq!(views[4].1.decoded_len().unwrap(), Some(9));
    assert_eq!(&views[4].1.decode_to_vec().unwrap().unwrap()[..5], b"%PDF-");
    // Percent-encoded data: URL.
    assert_eq!(views[5].1.decode_to_vec().unwrap().unwrap(), b"hello world");
    // The strict check passes all of them.
    assert!(
        check_media(&input, doc, &arena)
            .iter()
            .all(|f| f.severity != Severity::Error)
    );
    let Message::User(_) = &input.messages[0] else {
        panic!()
    };
}

#[test]
fn strict_check_reports_bad_payloads_with_document_offsets() {
    for (value, bad) in [
        ("!VBORw0KGgo=", "!"),
        ("iVBORw!KGgo=", "!"),
        ("iVBORw0KGg!=", "!"),
        ("iVBORw0KGgo", "iVBORw0KGgo\""),
    ] {
        let doc = one_part(&format!(
            r#"{{"type":"data","value":"{value}","mimeType":"image/png"}}"#
        ));
        let arena = Bump::new();
        let input = RunAgentInput::parse(doc.as_bytes(), &arena).unwrap();
        let findings = check_media(&input, doc.as_bytes(), &arena);
        assert_eq!(findings.len(), 1, "{value}");
        assert_eq!(findings[0].severity, Severity::Error);
        let payload = doc.find(value).unwrap();
        let want = if bad == "!" {
            payload + value.find('!').unwrap()
        } else {
            payload
        };
        assert!(
            findings[0].offset >= payload && findings[0].offset <= payload + value.len(),
            "{value}: {}",
            findings[0]
        );
        if bad == "!" {
            assert_eq!(findings[0].offset, want, "{value}: {}", findings[0]);
        }
    }
}
