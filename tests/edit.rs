//! Proxy edits: each leaves every other byte as it was, and the result is valid.

mod common;

use agui_wire::*;
use common::*;

/// The byte span of each message in a compact document written by our writer.
fn message_spans(input: &RunAgentInput<'_>) -> Vec<Vec<u8>> {
    input.messages.iter().map(|m| m.to_json_vec()).collect()
}

fn reparse(out: &[u8]) -> RunAgentInput<'static> {
    let arena = Bump::new();
    RunAgentInput::parse(out, &arena)
        .unwrap_or_else(|e| panic!("edited document does not parse: {e}"))
        .into_owned()
}

fn sample() -> Vec<u8> {
    read("samples/conversation.compact.json")
}

#[test]
fn replace_message_keeps_the_others_byte_identical() {
    let bytes = sample();
    let arena = Bump::new();
    let mut input = RunAgentInput::parse(&bytes, &arena).unwrap();
    let n = input.messages.len();
    assert!(n > 6);
    let before = message_spans(&input);
    let new = Message::User(UserMessage {
        id: Str::new("replaced"),
        content: Content::Text(Str::new("new \"text\"")),
        ..Default::default()
    });
    input.replace_message(5, new).unwrap();
    let out = to_vec(&input);
    // Everything up to the end of message 4 is the input's own prefix, and so is everything
    // after message 5.
    let m5 = before[5].as_slice();
    let at = bytes.windows(m5.len()).position(|w| w == m5).unwrap();
    assert_eq!(&out[..at], &bytes[..at]);
    let tail = &bytes[at + m5.len()..];
    assert!(out.ends_with(tail));
    for (i, m) in before.iter().enumerate().take(5) {
        assert!(
            out.windows(m.len()).any(|w| w == m.as_slice()),
            "message {i} changed"
        );
    }
    let again = reparse(&out);
    assert_eq!(again.messages[5].id(), &"replaced");
    assert_eq!(again.messages.len(), n);
    assert_eq!(again.extra, input.extra);
}

#[test]
fn every_edit_writes_a_valid_document() {
    let mode = Mode {
        canonical: false,
        sdk: false,
        shuffle: true,
    };
    let mut g = Gen::new(1234, mode);
    for n in 0..200 {
        let doc = g.document();
        let arena = Bump::new();
        let original = RunAgentInput::parse(doc.as_bytes(), &arena).unwrap();
        for edit in 0..10 {
            let mut input = original.clone();
            match edit {
                0 => {
                    input.set_state(RawJson::from_text(r#"{"edited":[1,2,{"x":null}]}"#).unwrap());
                }
                1 => {
                    input.set_forwarded_props(RawJson::from_text("[\"fp\"]").unwrap());
                }
                2 => {
                    input.push_context(Context {
                        description: Str::new("added"),
                        value: Str::new("v\n"),
                        ..Default::default()
                    });
                    input.remove_context(|c| c.description != "added");
                }
                3 => {
                    input.push_tool(Tool {
                        name: Str::new("added"),
                        description: Some(Str::new("d")),
                        ..Default::default()
                    });
                    input.remove_tools(|t| t.name != "added");
                }
                4 => {
                    input.retain_messages(|m| m.role() != Role::User);
                }
                5 => {
                    if !input.messages.is_empty() {
                        input.remove_message(0).unwrap();
                    }
                    input.push_message(Message::Reasoning(ReasoningMessage {
                        id: Str::new("r"),
                        content: Str::new("thinking"),
                        ..Default::default()
                    }));
                }
                6 => {
                    input.strip_encrypted_values();
                    assert_eq!(input.strip_encrypted_values(), 0);
                }
                7 => {
                    input.remove_reasoning_messages();
                    assert!(input.messages.iter().all(|m| m.role() != Role::Reasoning));
                }
                8 => {
                    input.offload_media(|p, _| {
                        Some(format!("https://cdn/{}-{}", p.message, p.part))
                    });
                }
                _ => {
                    let targets: Vec<(usize, usize)> = input
                        .messages
                        .iter()
                        .enumerate()
                        .flat_map(|(i, m)| (0..m.parts().len()).map(move |p| (i, p)))
                        .collect();
                    for (i, p) in targets {
                        input
                            .replace_part(
                                i,
                                p,
                                InputContent::Text(TextInputContent {
                                    text: Str::new("swapped"),
                                    ..Default::default()
                                }),
                            )
                            .unwrap();
                    }
                }
            }
            let out = to_vec(&input);
            let again = RunAgentInput::parse(&out, &arena).unwrap_or_else(|e| {
                panic!(
                    "doc {n} edit {edit}: {e}\n{}",
                    String::from_utf8_lossy(&out)
                )
            });
            assert_eq!(again, input, "doc {n} edit {edit}");
            // Unknown fields survive every edit.
            assert_eq!(again.extra, original.extra);
        }
    }
}

#[test]
fn strip_encrypted_and_reasoning() {
    let bytes = sample();
    let arena = Bump::new();
    let mut input = RunAgentInput::parse(&bytes, &arena).unwrap();
    let reasoning = input
        .messages
        .iter()
        .filter(|m| m.role() == Role::Reasoning)
        .count();
    assert!(reasoning > 0);
    assert!(input.strip_encrypted_values() > 0);
    let out = to_vec(&input);
    assert!(!out.windows(16).any(|w| w == b"\"encryptedValue\""));
    assert_eq!(input.remove_reasoning_messages(), reasoning);
    let out = to_vec(&input);
    assert!(!out.windows(18).any(|w| w == b"\"role\":\"reasoning\""));
    reparse(&out);
}

#[test]
fn offload_rewrites_inline_media_only() {
    let bytes = sample();
    let arena = Bump::new();
    let mut input = RunAgentInput::parse(&bytes, &arena).unwrap();
    let inline: Vec<PartPath> = {
        let mut v = Vec::new();
        input.offload_media(|p, m| {
            assert!(agui_wire::edit::is_inline(m));
            v.push(p);
            None
        });
        v
    };
    assert!(inline.len() >= 2, "the sample has an inline PNG and PDF");
    let mimes: Vec<String> = inline
        .iter()
        .map(|p| {
            input.messages[p.message].parts()[p.part]
                .as_media()
                .unwrap()
                .source
                .mime_type()
                .unwrap()
                .to_string()
        })
        .collect();
    let n = input
        .offload_media(|p, _| Some(format!("https://cdn.example.com/{}-{}", p.message, p.part)));
    assert_eq!(n, inline.len());
    let out = to_vec(&input);
    assert!(out.len() < bytes.len());
    let again = reparse(&out);
    for (p, mime) in inline.iter().zip(mimes) {
        let media = again.messages[p.message].parts()[p.part]
            .as_media()
            .unwrap();
        let InputContentSource::Url(u) = &media.source else {
            panic!("not a url source")
        };
        assert_eq!(
            u.value,
            format!("https://cdn.example.com/{}-{}", p.message, p.part).as_str()
        );
        assert_eq!(u.mime_type.as_ref().unwrap(), mime.as_str());
    }
    // Nothing left to offload.
    assert_eq!(input.offload_media(|_, _| Some("x".into())), 0);
}

#[test]
fn unknown_fields_survive_edits() {
    let doc = br#"{"threadId":"t","x-top":{"k":[1]},"runId":"r","messages":[{"id":"u","role":"user","x-m":1,"content":[{"type":"image","x-p":true,"source":{"type":"data","x-s":"s","value":"AAAA","mimeType":"image/png"}}]}],"tools":[{"name":"a","description":"b","x-t":null}]}"#;
    let arena = Bump::new();
    let mut input = RunAgentInput::parse(doc, &arena).unwrap();
    input.offload_media(|_, _| Some("https://cdn/x.png".into()));
    input.push_tool(Tool {
        name: Str::new("c"),
        description: Some(Str::new("d")),
        ..Default::default()
    });
    input.set_state(RawJson::from_text("{}").unwrap());
    assert_eq!(
        to_vec(&input),
        br#"{"threadId":"t","x-top":{"k":[1]},"runId":"r","messages":[{"id":"u","role":"user","x-m":1,"content":[{"type":"image","x-p":true,"source":{"type":"url","x-s":"s","value":"https://cdn/x.png","mimeType":"image/png"}}]}],"tools":[{"name":"a","description":"b","x-t":null},{"name":"c","description":"d"}],"state":{}}"#
    );
}

#[test]
fn edit_errors() {
    let doc = br#"{"threadId":"t","runId":"r","messages":[{"id":"u","role":"user","content":"text"},{"id":"v","role":"user","content":[]}]}"#;
    let arena = Bump::new();
    let mut input = RunAgentInput::parse(doc, &arena).unwrap();
    let part = || InputContent::Text(TextInputContent::default());
    assert_eq!(
        input.replace_part(0, 0, part()),
        Err(EditError::NoParts { message: 0 })
    );
    assert_eq!(
        input.replace_part(1, 0, part()),
        Err(EditError::PartOutOfRange {
            message: 1,
            index: 0,
            len: 0
        })
    );
    assert_eq!(
        input.replace_part(9, 0, part()),
        Err(EditError::MessageOutOfRange { index: 9, len: 2 })
    );
    assert!(input.replace_message(2, input.messages[0].clone()).is_err());
    // Failed edits changed nothing.
    assert_eq!(to_vec(&input), doc);
}
