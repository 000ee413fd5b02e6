//! `data:` URLs (`agui_wire::media::DataUrl`) on any text. Oracles:
//! - the same URL as the raw content of a JSON string, spelled with escapes
//!   (`DataUrl::parse_json`), reads the same: media type, parameters, base64 flag, decoded
//!   bytes, error kinds;
//! - a percent-encoded payload decodes as WHATWG percent-decoding says (`%` and two hex digits
//!   are a byte, anything else is itself), written here as the reference;
//! - a base64 payload decodes exactly as a `Base64` view over the same bytes;
//! - the payload is the slice of the input after the first comma, at `payload_offset`;
//!   `decoded_len`, `decode_into`, `decode_prefix` and `to_vec` agree; `sniff` and
//!   `mime_matches` take anything.
#![no_main]

use agui_wire::Bump;
use agui_wire::media::{
    Base64, DataPayload, DataUrl, DataUrlErrorKind, MediaType, mime_matches, sniff,
};
use agui_wire_fuzz::split::Rng;
use libfuzzer_sys::fuzz_target;

fn percent_decode(b: &[u8]) -> Vec<u8> {
    let hex = |c: u8| (c as char).to_digit(16);
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%'
            && let (Some(h), Some(l)) = (
                b.get(i + 1).and_then(|&c| hex(c)),
                b.get(i + 2).and_then(|&c| hex(c)),
            )
        {
            out.push((h * 16 + l) as u8);
            i += 3;
            continue;
        }
        out.push(b[i]);
        i += 1;
    }
    out
}

/// `text` as JSON string content, some characters escaped (quotes and backslashes always).
fn json_spelling(text: &str, rng: &mut Rng) -> String {
    let mut out = String::new();
    for c in text.chars() {
        let r = rng.next_u64() % 5;
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '/' if r == 0 => out.push_str("\\/"),
            c if (c as u32) < 0x20 || r == 1 => {
                let mut units = [0u16; 2];
                for u in c.encode_utf16(&mut units) {
                    out.push_str(&format!("\\u{u:04X}"));
                }
            }
            c => out.push(c),
        }
    }
    out
}

/// Decodes the payload of a URL parsed from plain text every way, against the references.
fn check_payload(url: &DataUrl<'_>) -> Result<Vec<u8>, DataUrlErrorKind> {
    let p = url.decoded();
    let all = p.to_vec().map_err(|e| e.kind());
    if let Ok(bytes) = &all {
        assert_eq!(p.decoded_len().map_err(|e| e.kind()), Ok(bytes.len()));
        let mut buf = vec![0u8; bytes.len()];
        assert_eq!(
            p.decode_into(&mut buf).map_err(|e| e.kind()),
            Ok(bytes.len())
        );
        assert_eq!(&buf, bytes);
        let mut head = [0u8; 7];
        let n = p
            .decode_prefix(&mut head)
            .expect("prefix of a valid payload");
        assert_eq!(&head[..n], &bytes[..bytes.len().min(7)]);
        assert_eq!(p.sniff(), sniff(&bytes[..bytes.len().min(64)]));
    }
    match p {
        DataPayload::Base64(b) => {
            assert!(url.is_base64());
            let alone = Base64::new(url.payload(), false, 0).decode_to_vec();
            assert_eq!(all, alone.map_err(|e| DataUrlErrorKind::Base64(e.kind())));
            assert_eq!(
                b.decode_to_vec()
                    .map_err(|e| DataUrlErrorKind::Base64(e.kind())),
                all
            );
        }
        DataPayload::Percent(_) => {
            assert!(!url.is_base64());
            assert_eq!(all, Ok(percent_decode(url.payload())), "percent-decoding");
        }
    }
    let _ = url.sniff();
    all
}

fuzz_target!(|data: &[u8]| {
    for t in [MediaType::Png, MediaType::Pdf] {
        let _ = mime_matches(&String::from_utf8_lossy(data), t);
    }
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let plain = DataUrl::parse(text);
    let plain_read = plain.as_ref().map(|url| {
        let payload = url.payload();
        let off = url.payload_offset();
        assert_eq!(
            &text.as_bytes()[off..off + payload.len()],
            payload,
            "payload slice"
        );
        assert_eq!(text.as_bytes()[off - 1], b',', "payload follows the comma");
        (
            url.mime_type().to_owned(),
            url.params()
                .map(|(k, v)| (k.to_owned(), v.to_owned()))
                .collect::<Vec<_>>(),
            url.is_base64(),
            check_payload(url),
        )
    });

    let mut rng = Rng::for_input(data, 0xda7a);
    let spelled = json_spelling(text, &mut rng);
    let arena = Bump::new();
    let json = DataUrl::parse_json(spelled.as_bytes(), true, 3, &arena);
    match (&plain_read, &json) {
        (Ok((mime, params, b64, decoded)), Ok(url)) => {
            assert_eq!(url.mime_type(), mime, "media type through escapes");
            let p: Vec<_> = url
                .params()
                .map(|(k, v)| (k.to_owned(), v.to_owned()))
                .collect();
            assert_eq!(&p, params, "parameters through escapes");
            assert_eq!(url.is_base64(), *b64);
            assert_eq!(
                &url.decoded().to_vec().map_err(|e| e.kind()),
                decoded,
                "payload through escapes"
            );
        }
        (Err(a), Err(b)) => assert_eq!(a.kind(), b.kind(), "error through escapes"),
        (Err(a), Ok(_)) if a.kind() == DataUrlErrorKind::HeaderTooLong => {}
        (Ok(_), Err(b)) if b.kind() == DataUrlErrorKind::HeaderTooLong => {}
        (a, b) => panic!("plain {a:?}, escaped {b:?} for {spelled:?}"),
    }
});
