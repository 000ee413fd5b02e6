//! Tests of the indexed walk: random documents, damaged and cut into passes, against the
//! byte-by-byte validator ([`super::super::skip_paths_agree`]).

use super::super::skip_paths_agree;
use crate::error::ErrorKind;
use crate::scanner::Cursor;

fn agree(doc: &[u8]) {
    if let Err(e) = skip_paths_agree(doc, 0, 128) {
        panic!("{e}\non {:?}", String::from_utf8_lossy(doc));
    }
}

/// A small deterministic generator (xorshift), so that failures are reproducible.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

fn ws(r: &mut Rng, out: &mut String) {
    for _ in 0..r.below(3).saturating_sub(1) {
        out.push([' ', '\n', '\t', '\r'][r.below(4) as usize]);
    }
}

fn string(r: &mut Rng, out: &mut String) {
    out.push('"');
    for _ in 0..r.below(12) {
        match r.below(12) {
            0 => out.push_str("\\\""),
            1 => out.push_str("\\\\"),
            2 => out.push_str("\\u00e9"),
            3 => out.push_str("\\ud83d\\ude00"),
            4 => out.push('é'),
            5 => out.push_str("\\n"),
            6 => out.push('𝄞'),
            _ => out.push((b'a' + r.below(26) as u8) as char),
        }
    }
    out.push('"');
}

fn value(r: &mut Rng, depth: usize, out: &mut String) {
    ws(r, out);
    match r.below(if depth > 6 { 6 } else { 8 }) {
        0 => out.push_str(["true", "false", "null"][r.below(3) as usize]),
        1 | 2 => out.push_str(
            [
                "0",
                "-0",
                "12345678901234567890",
                "1.5",
                "-2.25e-3",
                "6E+7",
                "3e10",
                "0.000001",
                "-123456.789012345678e-12",
            ][r.below(9) as usize],
        ),
        3..=5 => string(r, out),
        6 => {
            out.push('[');
            let n = r.below(6);
            for k in 0..n {
                if k > 0 {
                    out.push(',');
                }
                value(r, depth + 1, out);
            }
            ws(r, out);
            out.push(']');
        }
        _ => {
            out.push('{');
            let n = r.below(6);
            for k in 0..n {
                if k > 0 {
                    out.push(',');
                }
                ws(r, out);
                string(r, out);
                ws(r, out);
                out.push(':');
                value(r, depth + 1, out);
            }
            ws(r, out);
            out.push('}');
        }
    }
    ws(r, out);
}

/// `doc` with one byte replaced, removed or inserted at a random place (the bytes most
/// likely to matter to the grammar), and that place.
fn damaged(r: &mut Rng, doc: &[u8]) -> (Vec<u8>, usize) {
    const DAMAGE: &[u8] = b"\"\\{}[]:, \n\x01\x7f\xff\xc3e.-+0tu";
    let mut bad = doc.to_vec();
    let at = r.below(bad.len() as u64) as usize;
    let byte = DAMAGE[r.below(DAMAGE.len() as u64) as usize];
    match r.below(3) {
        0 => bad[at] = byte,
        1 => {
            bad.remove(at);
        }
        _ => bad.insert(at, byte),
    }
    (bad, at)
}

fn random_doc(r: &mut Rng) -> Vec<u8> {
    let mut s = String::new();
    // A container, so that the indexed walk runs.
    s.push(if r.below(2) == 0 { '[' } else { '{' });
    let object = s == "{";
    for k in 0..1 + r.below(8) {
        if k > 0 {
            s.push(',');
        }
        if object {
            string(r, &mut s);
            s.push(':');
        }
        value(r, 0, &mut s);
    }
    s.push(if object { '}' } else { ']' });
    s.into_bytes()
}

#[test]
fn random_documents_and_their_damage() {
    let mut r = Rng(0x9E37_79B9_7F4A_7C15);
    for _ in 0..3000 {
        let doc = random_doc(&mut r);
        agree(&doc);
        // Followed by something else, as inside a larger document.
        agree(&[&doc[..], b" ,\"x\\q\x01\xff"].concat());
        for _ in 0..4 {
            let (bad, at) = damaged(&mut r, &doc);
            agree(&bad);
            agree(&bad[..at]);
        }
    }
}

/// Random documents, whole and damaged, inside open containers and after a block of
/// whitespace, so that their blocks take the walk without a branch per token (fewer
/// closing brackets in a block than open containers), also near the depth limit and the
/// innermost 64 levels.
#[test]
fn random_documents_deep_inside() {
    let mut r = Rng(0xD1B5_4A32_D192_ED03);
    for n in 0..2000 {
        let doc = random_doc(&mut r);
        let levels = [1, 3, 8, 40, 60, 63, 70][n % 7];
        let open: String = (0..levels).map(|k| ["[", "{\"k\":"][k % 2]).collect();
        let close: String = (0..levels).rev().map(|k| ["]", "}"][k % 2]).collect();
        let pad = " ".repeat(n % 80);
        let wrap = |d: &[u8]| [open.as_bytes(), pad.as_bytes(), d, close.as_bytes()].concat();
        for limit in [128, levels + 3, levels + 12] {
            for d in [doc.clone(), damaged(&mut r, &doc).0] {
                let d = wrap(&d);
                if let Err(e) = skip_paths_agree(&d, 0, limit) {
                    panic!("{e}\non {:?}", String::from_utf8_lossy(&d));
                }
            }
        }
    }
}

fn passes_agree(doc: &[u8], cuts: &[usize], max_depth: usize) {
    if let Err(e) = super::super::passes_agree(doc, cuts, 0, max_depth) {
        panic!("{e}\non {:?}", String::from_utf8_lossy(doc));
    }
}

/// Random documents long enough for the index, validated in passes over a growing buffer
/// (one-byte passes, every two-pass split, random cuts), whole and damaged: the verdict,
/// end, whitespace count, error kind and offset of one go.
#[test]
fn random_documents_in_passes() {
    let mut r = Rng(0x2545_F491_4F6C_DD1D);
    let mut n = 0;
    while n < crate::test_support::rounds(150) {
        let doc = random_doc(&mut r);
        if doc.len() < crate::scanner::index::INDEX_MIN {
            continue;
        }
        n += 1;
        let all: Vec<usize> = (1..doc.len()).collect();
        passes_agree(&doc, &all, 128);
        for cut in 0..=doc.len() {
            passes_agree(&doc, &[cut], 128);
        }
        for _ in 0..6 {
            let (bad, at) = damaged(&mut r, &doc);
            let mut cuts: Vec<usize> = (0..r.below(8))
                .map(|_| r.below(bad.len() as u64 + 1) as usize)
                .collect();
            cuts.push(at);
            passes_agree(&bad, &cuts, 128);
            passes_agree(&bad, &(1..bad.len()).collect::<Vec<_>>(), 128);
        }
    }
}

/// Where a pass may stop: in a long string, in an escape or a surrogate pair, in a
/// multi-byte UTF-8 sequence (valid or not), in a number or a literal, between tokens,
/// and more than 64 levels deep (the state keeps the spilled stack).
#[test]
fn passes_stop_anywhere() {
    let docs: Vec<Vec<u8>> = vec![
        format!("[\"{}\",1]", "é𝄞\\\"\\u00e9\\ud83d\\ude00x".repeat(20)).into_bytes(),
        format!("{{\"a\":[{}0]}}", "-12.5e+3,true,false,null,".repeat(10)).into_bytes(),
        format!("[{}\"\\ud83d\"]", "1,".repeat(80)).into_bytes(),
        [&b"[\""[..], &[b'x'; 150], b"\xc3\"]"].concat(),
        [&b"[\""[..], &[b'x'; 150], b"\xe2\x82\"]"].concat(),
        format!("[{}1{}]", "[{\"a\":".repeat(70), "}]".repeat(70)).into_bytes(),
        format!("[{}1{}]", "[{\"a\":".repeat(70), "}]".repeat(69)).into_bytes(),
        format!("[{}{}]", " \n".repeat(100), "1234567890".repeat(5)).into_bytes(),
    ];
    for doc in &docs {
        let all: Vec<usize> = (1..doc.len()).collect();
        for limit in [128, 141, 142, 512] {
            passes_agree(doc, &all, limit);
        }
        for cut in 0..=doc.len() {
            passes_agree(doc, &[cut], 512);
            passes_agree(doc, &[cut, cut + 1, cut + 13], 512);
        }
    }
}

/// One-byte passes over a 100 KB value of small records (the bench's `state`): each
/// byte is indexed about once and little is read again (a token cut by the end of the
/// bytes is walked again from its start: numbers and literals of a few bytes here).
#[test]
fn one_byte_passes_stay_linear() {
    let mut doc = String::from("{\"items\":[");
    let mut i = 0;
    while doc.len() < 100_000 {
        if i > 0 {
            doc.push(',');
        }
        doc.push_str(&format!(
            r#"{{"id":{i},"name":"item-{i} é","tags":["a","bb","ccc"],"score":{}.25,"nested":{{"ok":true,"v":[1,2,{{"deep":null}}]}}}}"#,
            i % 1000
        ));
        i += 1;
    }
    doc.push_str("]}");
    let doc = doc.as_bytes();
    let all: Vec<usize> = (1..doc.len()).collect();
    let (got, reread, indexed) = super::super::skip_in_passes(doc, &all, 0, 128);
    let mut c = Cursor::new(doc);
    let want = c.skip_value(0, 128).map(|k| (k, c.pos, c.ws));
    assert_eq!(got, want);
    // Re-reading from the value's start each pass would be 5 * 10^9 bytes.
    assert!(
        indexed <= 2 * doc.len(),
        "indexed {indexed} of {}",
        doc.len()
    );
    assert!(reread <= doc.len(), "re-read {reread} of {}", doc.len());
    eprintln!(
        "one-byte passes: {} bytes, indexed {indexed}, re-read {reread}",
        doc.len()
    );
}

/// Long strings, whose plain stretches the walk steps over with the string scanner: one
/// odd thing (an escape, a control byte, valid and invalid UTF-8, a stray quote) at every
/// kind of place in them, near and far from block edges and from the end of the bytes,
/// in one go and in passes over a growing buffer.
#[test]
fn long_strings_stepped_over() {
    const ODD: &[&[u8]] = &[
        b"\\n",
        b"\\\"",
        b"\\\\",
        b"\\u00e9",
        b"\\ud83d\\ude00",
        b"\\ud83d",
        b"\\q",
        b"\\u12g4",
        b"\\",
        b"\x01",
        b"\x1f",
        b"\x7f",
        b"\xc3\xa9",
        b"\xf0\x9d\x84\x9e",
        b"\xff",
        b"\xc3",
        b"\xe2\x82",
        b"\xed\xa0\x80",
        b"\"",
        b"\",\"",
        b"",
    ];
    let mut r = Rng(0x5851_F42D_4C95_7F2D);
    for n in 0..1500 {
        let len = [70, 130, 200, 257, 640, 1000, 4096][n % 7] + r.below(64) as usize;
        let mut text = vec![b'A' + (n % 26) as u8; len];
        // Base64's other bytes now and then (no quote, backslash or control among them).
        for _ in 0..r.below(8) {
            let at = r.below(len as u64) as usize;
            text[at] = b"+/=0az"[r.below(6) as usize];
        }
        let odd = ODD[r.below(ODD.len() as u64) as usize];
        let at = r.below(len as u64 + 1) as usize;
        let text = [&text[..at], odd, &text[at..]].concat();
        let head: &[u8] = [&b"["[..], b"{\"value\":", b"{\"a\":[1,{\"data\":"][n % 3];
        let tail: &[u8] = [&b"]"[..], b"}", b"}]}"][n % 3];
        let pad = b" ".repeat(n % 67);
        let doc = [head, &pad, b"\"", &text, b"\"", tail].concat();
        agree(&doc);
        agree(&doc[..doc.len() - 1 - r.below(4) as usize]);
        if n % 5 == 0 {
            let mut cuts: Vec<usize> = (0..r.below(6))
                .map(|_| r.below(doc.len() as u64 + 1) as usize)
                .collect();
            cuts.push(pad.len() + head.len() + 1 + at);
            passes_agree(&doc, &cuts, 128);
        }
    }
}

#[test]
fn every_cut_and_every_byte_of_a_document() {
    let doc = br#"{"records":[{"id":-12,"ok":true,"v":1.5e-7,"s":"a\"b\\\u00e9\ud83d\ude00 c"},[0,-0.0,1E+2,null,false],{}],"e":[],"t":"x"}"#;
    for cut in 0..=doc.len() {
        agree(&doc[..cut]);
    }
    for at in 0..doc.len() {
        for b in 0..=255u8 {
            let mut bad = doc.to_vec();
            bad[at] = b;
            agree(&bad);
        }
    }
}

#[test]
fn tokens_and_escapes_at_block_edges() {
    // Shift a document across the first block edge: every token, escape, surrogate pair
    // and number meets bit 63 and bit 0 somewhere.
    let body = r#""k\\\"":[1234567890.5e-10,"\ud83d\ude00\n",true,null,{"a":"é"}],"#;
    for pad in 0..130 {
        let doc = format!("{{{}{}\"z\":0}}", " ".repeat(pad), body.repeat(3));
        agree(doc.as_bytes());
        let doc = format!("[{}{}]", "1,".repeat(pad), "-0.5e+3,false,\"\\\\\"");
        agree(doc.as_bytes());
        let doc = format!("[\"{}\\\"\",{}]", "x".repeat(pad), "9".repeat(pad + 1));
        agree(doc.as_bytes());
    }
}

#[test]
fn deep_nesting_and_the_depth_limit() {
    for depth in [1usize, 63, 64, 65, 127, 128, 129, 200, 1000] {
        let doc = format!("{}1{}", "[{\"a\":".repeat(depth), "}]".repeat(depth));
        for limit in [depth * 2 - 1, depth * 2, depth * 2 + 1] {
            skip_paths_agree(doc.as_bytes(), 0, limit).unwrap();
            skip_paths_agree(doc.as_bytes(), 1, limit).unwrap();
        }
        let mut c = Cursor::new(doc.as_bytes());
        assert!(c.skip_value(0, depth * 2).is_ok());
        let mut c = Cursor::new(doc.as_bytes());
        let e = c.skip_value(0, depth * 2 - 1).unwrap_err();
        assert_eq!(e.kind, ErrorKind::DepthLimitExceeded(depth * 2 - 1));
    }
    // A million open brackets: an error at the limit, no recursion, no growth.
    let deep = "[".repeat(1_000_000);
    skip_paths_agree(deep.as_bytes(), 0, 512).unwrap();
    let mut c = Cursor::new(deep.as_bytes());
    let e = c.skip_value(0, 512).unwrap_err();
    assert_eq!(
        (e.kind, e.offset),
        (ErrorKind::DepthLimitExceeded(512), 512)
    );
}

#[test]
fn whitespace_is_counted_as_before() {
    let doc = b" [ 1 ,\t{ \"a\" :\n\"b c\" } ,\r\n[ ] ]  ";
    let padded = [&doc[..], &[b' '; 200][..]].concat();
    for d in [&doc[..], &padded[..]] {
        agree(d);
        let mut c = Cursor::new(d);
        c.skip_value(0, 8).unwrap();
        assert_eq!((c.pos, c.ws), (doc.len() - 2, 13));
    }
}

#[test]
fn errors_are_the_byte_by_byte_errors() {
    let filler = format!("[{}", "0,".repeat(100));
    for (tail, kind) in [
        ("\"a\\x\"]", ErrorKind::InvalidEscape),
        ("\"\\ud800\"]", ErrorKind::LoneSurrogate),
        ("01]", ErrorKind::InvalidNumber),
        ("tru]", ErrorKind::InvalidLiteral),
        ("\"a\u{1}\"]", ErrorKind::ControlCharacterInString(1)),
    ] {
        let doc = format!("{filler}{tail}");
        agree(doc.as_bytes());
        let mut c = Cursor::new(doc.as_bytes());
        assert_eq!(c.skip_value(0, 8).unwrap_err().kind, kind, "{tail}");
    }
    let doc = [filler.as_bytes(), b"\"\xff\"]"].concat();
    agree(&doc);
    let mut c = Cursor::new(&doc);
    let e = c.skip_value(0, 8).unwrap_err();
    assert_eq!(
        (e.kind, e.offset),
        (ErrorKind::InvalidUtf8, filler.len() + 1)
    );
}
