//! The string entry points against serde_json: `Str::from_raw` on any text accepts exactly the
//! string contents serde_json accepts between two quotes, and `unescaped`, `eq_text`,
//! `in_arena` and `as_plain` give serde_json's string; `Str::new` / `escape_into` write what
//! serde_json writes, and that reads back to the original text.
#![no_main]

use agui_wire::{Bump, Str, escape_into};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let arena = Bump::new();

    // Reading: `text` as the raw content of a JSON string.
    let quoted = format!("\"{text}\"");
    let serde: Result<String, _> = serde_json::from_str(&quoted);
    match (Str::from_raw(text), serde) {
        (Ok(s), Ok(want)) => {
            assert_eq!(s.raw(), text);
            assert_eq!(s.unescaped(), want.as_str());
            assert!(s.eq_text(&want));
            assert_eq!(s.in_arena(&arena), want.as_str());
            assert_eq!(s.is_escaped(), text.contains('\\'));
            assert_eq!(s.as_plain().is_some(), !s.is_escaped());
            // One character more or less never compares equal.
            let mut longer = want.clone();
            longer.push('x');
            assert!(!s.eq_text(&longer));
            if let Some((cut, _)) = want.char_indices().last() {
                assert!(!s.eq_text(&want[..cut]));
            }
            assert_eq!(s, Str::new(&want), "Str equality across escaping");
        }
        (Err(e), Err(_)) => {
            assert!(
                e.offset() <= text.len(),
                "offset {} past {}",
                e.offset(),
                text.len()
            );
        }
        (Ok(s), Err(e)) => panic!("from_raw accepted {text:?} ({s:?}), serde_json: {e}"),
        (Err(e), Ok(v)) => panic!("from_raw rejected {text:?} ({e}), serde_json reads {v:?}"),
    }

    // Writing: `text` as a string value.
    let written = serde_json::to_string(text).expect("serde_json writes any str");
    let want = &written[1..written.len() - 1];
    let s = Str::new(text);
    assert_eq!(
        s.raw(),
        want,
        "Str::new escapes differently from serde_json"
    );
    assert_eq!(Str::new_in(text, &arena).raw(), want);
    let mut out = String::from("prefix");
    escape_into(text, &mut out);
    assert_eq!(&out[6..], want);
    let back = Str::from_raw(s.raw()).expect("written text reads back");
    assert_eq!(back.unescaped(), text);
    assert!(back.eq_text(text));
});
