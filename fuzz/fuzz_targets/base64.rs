//! The base64 decoder (`agui_wire::media::Base64`) on any bytes, against the `base64` crate:
//! - `Base64Mode::Strict` accepts exactly what the crate's `STANDARD` engine accepts, with the
//!   same bytes;
//! - `Base64Mode::Forgiving` is WHATWG forgiving-base64, checked against the spec's steps
//!   (strip ASCII whitespace, drop one or two final `=` from a multiple of four, reject a
//!   length of 1 mod 4 or any other character) with the crate decoding the rest;
//! - every kernel (scalar, SSSE3, AVX2) gives the same result, error offsets included;
//! - every way out agrees: `validate`, `decoded_len`, `decode_into` (exact and short buffers),
//!   `decode_in`, `decode_prefix`, the `io::Read` reader, `chunks` (decoded one by one, with the
//!   whole's first error), `sniff`;
//! - the same text spelled with JSON escapes (`\/`, `\u0041`, `\n`, ...) decodes the same,
//!   with errors at the escape's backslash.
#![no_main]

use std::io::Read;

use agui_wire::Bump;
use agui_wire::media::{Base64, Base64Error, Base64ErrorKind, Base64Mode, Kernel, sniff};
use agui_wire_fuzz::split::Rng;
use base64::Engine as _;
use base64::engine::DecodePaddingMode;
use base64::engine::general_purpose::{GeneralPurpose, GeneralPurposeConfig, STANDARD};
use libfuzzer_sys::fuzz_target;

const BASE: usize = 7;

/// WHATWG "forgiving-base64 decode".
fn forgiving(data: &[u8]) -> Option<Vec<u8>> {
    let mut s: Vec<u8> = data
        .iter()
        .copied()
        .filter(|b| !matches!(b, b'\t' | b'\n' | 0x0c | b'\r' | b' '))
        .collect();
    if s.len().is_multiple_of(4) {
        if s.ends_with(b"==") {
            s.truncate(s.len() - 2);
        } else if s.ends_with(b"=") {
            s.truncate(s.len() - 1);
        }
    }
    if s.len() % 4 == 1
        || !s
            .iter()
            .all(|b| b.is_ascii_alphanumeric() || *b == b'+' || *b == b'/')
    {
        return None;
    }
    let lax = GeneralPurpose::new(
        &base64::alphabet::STANDARD,
        GeneralPurposeConfig::new()
            .with_decode_padding_mode(DecodePaddingMode::RequireNone)
            .with_decode_allow_trailing_bits(true),
    );
    Some(
        lax.decode(&s)
            .expect("forgiving-base64 leaves only decodable text"),
    )
}

/// Every way of decoding `view` against `want` (the scalar kernel's full decode).
fn consistent(view: Base64<'_>, want: &Result<Vec<u8>, Base64Error>, data_len: usize) {
    let arena = Bump::new();
    match want {
        Ok(bytes) => {
            let n = bytes.len();
            assert_eq!(view.validate(), Ok(()));
            assert_eq!(view.decoded_len(), Ok(n));
            let mut exact = vec![0u8; n];
            assert_eq!(view.decode_into(&mut exact), Ok(n));
            assert_eq!(&exact, bytes);
            if n > 0 {
                let mut short = vec![0u8; n - 1];
                let e = view.decode_into(&mut short).expect_err("short buffer");
                assert_eq!(
                    e.kind(),
                    Base64ErrorKind::OutputTooSmall {
                        needed: n,
                        available: n - 1
                    }
                );
            }
            assert_eq!(
                view.decode_in(&arena).map(<[u8]>::to_vec),
                Ok(bytes.clone())
            );
            for k in [0, 1, 2, 3, 5, 64, n] {
                let mut head = vec![0u8; k];
                let got = view.decode_prefix(&mut head).expect("prefix of valid text");
                assert_eq!(got, k.min(n));
                assert_eq!(&head[..got], &bytes[..got]);
            }
            let mut read = Vec::new();
            view.reader()
                .read_to_end(&mut read)
                .expect("reader on valid text");
            assert_eq!(&read, bytes);
            assert_eq!(view.sniff(), sniff(&bytes[..n.min(64)]));
        }
        Err(e) => {
            assert!(
                e.offset() <= data_len,
                "offset {} past {data_len}",
                e.offset()
            );
            assert_eq!(e.doc_offset(), e.offset() + BASE);
            assert_eq!(view.validate(), Err(*e));
            assert_eq!(view.decode_in(&arena).map(<[u8]>::to_vec), Err(*e));
            assert!(view.reader().read_to_end(&mut Vec::new()).is_err());
        }
    }
    // Chunked decoding gives the whole's bytes, or its first error.
    for max in [1, 3, 4, 48, 1000] {
        let mut out = Vec::new();
        let mut first_err = None;
        for chunk in view.chunks(max) {
            match chunk.decode_to_vec() {
                Ok(b) => out.extend_from_slice(&b),
                Err(e) => {
                    first_err = Some(e);
                    break;
                }
            }
        }
        match (want, first_err) {
            (Ok(bytes), None) => assert_eq!(&out, bytes, "chunks({max})"),
            (Err(e), Some(got)) => assert_eq!(
                (got.kind(), got.offset()),
                (e.kind(), e.offset()),
                "chunks({max})"
            ),
            (w, got) => panic!("chunks({max}): whole {w:?}, chunks {got:?}"),
        }
    }
}

/// `text` with some characters written as JSON escapes, and where each character went.
fn escaped(text: &str, rng: &mut Rng) -> (String, Vec<(usize, usize)>) {
    let mut out = String::new();
    let mut map = Vec::new();
    for (i, c) in text.char_indices() {
        map.push((i, out.len()));
        let r = rng.next_u64() % 4;
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' if r == 0 => out.push_str("\\n"),
            '/' if r == 0 => out.push_str("\\/"),
            c if (c as u32) < 0x20 || r == 1 => {
                let mut units = [0u16; 2];
                for u in c.encode_utf16(&mut units) {
                    out.push_str(&format!("\\u{u:04x}"));
                }
            }
            c => out.push(c),
        }
    }
    map.push((text.len(), out.len()));
    (out, map)
}

fuzz_target!(|data: &[u8]| {
    let strict = Base64::new(data, false, BASE).with_kernel(Kernel::Scalar);
    let ours = strict.decode_to_vec();
    match (&ours, STANDARD.decode(data)) {
        (Ok(a), Ok(b)) => assert_eq!(a, &b, "strict bytes differ from the base64 crate"),
        (Err(_), Err(_)) => {}
        (a, b) => panic!("strict: ours {a:?}, base64 crate {b:?}"),
    }
    let lenient = strict.with_mode(Base64Mode::Forgiving);
    let ours_f = lenient.decode_to_vec();
    match (&ours_f, forgiving(data)) {
        (Ok(a), Some(b)) => assert_eq!(a, &b, "forgiving bytes differ from WHATWG"),
        (Err(_), None) => {}
        (a, b) => panic!("forgiving: ours {a:?}, WHATWG {b:?}"),
    }
    if let (Ok(s), Ok(f)) = (&ours, &ours_f) {
        assert_eq!(s, f, "forgiving decodes strict text differently");
    }

    let mut rng = Rng::for_input(data, 0xb64);
    for (view, want, mode) in [
        (strict, &ours, Base64Mode::Strict),
        (lenient, &ours_f, Base64Mode::Forgiving),
    ] {
        for k in [Kernel::Auto, Kernel::Ssse3, Kernel::Avx2] {
            if k.is_available() {
                assert_eq!(&view.with_kernel(k).decode_to_vec(), want, "kernel {k:?}");
                assert_eq!(
                    view.with_kernel(k).validate(),
                    want.as_ref().map(drop).map_err(|e| *e)
                );
            }
        }
        consistent(view, want, data.len());

        if let Ok(text) = std::str::from_utf8(data) {
            let (esc, map) = escaped(text, &mut rng);
            let got = Base64::new(esc.as_bytes(), true, BASE)
                .with_mode(mode)
                .decode_to_vec();
            match (want, &got) {
                (Ok(a), Ok(b)) => assert_eq!(a, b, "escaped spelling decodes differently"),
                (Err(a), Err(b)) => {
                    assert_eq!(a.kind(), b.kind(), "escaped spelling: other error");
                    if let Some(&(_, at)) = map.iter().find(|(p, _)| *p == a.offset()) {
                        assert_eq!(b.offset(), at, "escaped spelling: error offset");
                    }
                }
                (a, b) => panic!("plain {a:?}, escaped {b:?} for {esc:?}"),
            }
        }
    }
});
