//! The parsers a user would pick instead of ours, all reading the same bytes to the same
//! information, plus two limits (a `memchr2` scan and a `memcpy`).
//!
//! Each [`Peer`] has a timed body (the parse and the drop of its result, nothing else) and a
//! check, run once before timing, that reports what it parsed so the group can compare it
//! with the generator's [`Summary`].

pub mod ag_ui;
pub mod ag_ui_core;
pub mod agui_wire;
pub mod borrowed;
pub mod limits;
pub mod owned;
pub mod simd_value;

use std::hint::black_box;

use crate::common::corpus::{Corpus, Summary};

/// A body reading the input as given.
pub type SliceFn<'s> = Box<dyn FnMut(&[u8]) + 's>;
/// A body reading (and allowed to overwrite) its own copy of the input.
pub type MutFn<'s> = Box<dyn FnMut(&mut Vec<u8>) + 's>;
/// A check: what the peer parsed (`None`: nothing to compare, the check verified it).
pub type CheckFn<'s> = Box<dyn FnMut(&[u8]) -> Result<Option<Summary>, String> + 's>;

/// A timed body.
pub enum Body<'s> {
    /// Reads the input as given (it is never mutated). Peers that need a mutable copy make
    /// it in here, so its cost is counted.
    Slice(SliceFn<'s>),
    /// Gets a fresh copy of the input made outside the timed region (criterion's
    /// `iter_batched_ref` with `BatchSize::LargeInput`), for in-place parsers.
    Mutable(MutFn<'s>),
}

/// One contender of a group.
pub struct Peer<'s> {
    /// The criterion function id.
    pub name: &'static str,
    /// What is timed.
    pub body: Body<'s>,
    /// Parses once and reports what it found (`None`: nothing to compare, the check itself
    /// verified the result).
    pub check: CheckFn<'s>,
    /// An extra, untimed variant whose allocations are printed too (ours with a fresh arena).
    pub cold: Option<SliceFn<'s>>,
}

fn slice<'s>(
    name: &'static str,
    body: impl FnMut(&[u8]) + 's,
    check: impl FnMut(&[u8]) -> Result<Option<Summary>, String> + 's,
) -> Peer<'s> {
    Peer {
        name,
        body: Body::Slice(Box::new(body)),
        check: Box::new(check),
        cold: None,
    }
}

fn mutable<'s>(
    name: &'static str,
    body: impl FnMut(&mut Vec<u8>) + 's,
    check: impl FnMut(&[u8]) -> Result<Option<Summary>, String> + 's,
) -> Peer<'s> {
    Peer {
        name,
        body: Body::Mutable(Box::new(body)),
        check: Box::new(check),
        cold: None,
    }
}

/// simd-json into the owned model (it rewrites `buf` as it parses).
pub fn simd_owned(buf: &mut [u8]) -> Result<owned::RunAgentInput, String> {
    simd_json::serde::from_slice::<owned::RunAgentInput>(buf).map_err(|e| e.to_string())
}

/// The peers for a corpus, ours first, and a note for each peer that cannot take part.
pub fn all(corpus: &Corpus) -> (Vec<Peer<'static>>, Vec<String>) {
    let mut peers = Vec::new();
    let mut notes = Vec::new();

    peers.extend(agui_wire::peers(corpus));

    if corpus.ag_ui_core_readable {
        peers.push(slice(
            "ag_ui_core",
            |i| drop(black_box(ag_ui_core::parse(i).expect("ag_ui_core"))),
            |i| {
                let r = ag_ui_core::parse(i).map_err(|e| e.to_string())?;
                Ok(Some(ag_ui_core::summary(&r)))
            },
        ));
    } else {
        let why = match ag_ui_core::parse(&corpus.bytes) {
            Err(e) => format!("rejects it: {e}"),
            Ok(_) => "reads it, but its model drops content parts/roles (not comparable)".into(),
        };
        notes.push(format!("ag_ui_core: cannot take part, {why}"));
    }

    match ag_ui::parse(&corpus.bytes) {
        Ok(_) => peers.push(slice(
            "ag_ui",
            |i| drop(black_box(ag_ui::parse(i).expect("ag_ui"))),
            |i| {
                let r = ag_ui::parse(i).map_err(|e| e.to_string())?;
                Ok(Some(ag_ui::summary(&r)))
            },
        )),
        Err(e) => notes.push(format!("ag_ui: cannot take part, rejects it: {e}")),
    }

    peers.push(slice(
        "serde_json_owned",
        |i| {
            drop(black_box(
                serde_json::from_slice::<owned::RunAgentInput>(i).expect("serde_json"),
            ))
        },
        |i| {
            let r = serde_json::from_slice::<owned::RunAgentInput>(i).map_err(|e| e.to_string())?;
            Ok(Some(owned::summary(&r)))
        },
    ));

    peers.push(slice(
        "serde_json_borrowed",
        |i| {
            drop(black_box(
                borrowed::serde_json_raw::parse(i).expect("serde_json borrowed"),
            ))
        },
        |i| {
            let r = borrowed::serde_json_raw::parse(i).map_err(|e| e.to_string())?;
            Ok(Some(borrowed::serde_json_raw::summary(&r)))
        },
    ));

    peers.push(slice(
        "simd_json_owned",
        |i| {
            let mut copy = i.to_vec();
            drop(black_box(simd_owned(&mut copy).expect("simd-json owned")));
        },
        |i| Ok(Some(owned::summary(&simd_owned(&mut i.to_vec())?))),
    ));
    peers.push(mutable(
        "simd_json_owned_nocopy",
        |buf| drop(black_box(simd_owned(buf).expect("simd-json owned"))),
        |i| Ok(Some(owned::summary(&simd_owned(&mut i.to_vec())?))),
    ));

    peers.push(slice(
        "simd_json_value",
        |i| {
            let mut copy = i.to_vec();
            drop(black_box(
                simd_json::to_borrowed_value(&mut copy).expect("simd-json value"),
            ));
        },
        |i| {
            let mut copy = i.to_vec();
            let v = simd_json::to_borrowed_value(&mut copy).map_err(|e| e.to_string())?;
            Ok(Some(simd_value::summary(&v)))
        },
    ));
    peers.push(mutable(
        "simd_json_value_nocopy",
        |buf| {
            drop(black_box(
                simd_json::to_borrowed_value(buf).expect("simd-json value"),
            ))
        },
        |i| {
            let mut copy = i.to_vec();
            let v = simd_json::to_borrowed_value(&mut copy).map_err(|e| e.to_string())?;
            Ok(Some(simd_value::summary(&v)))
        },
    ));

    // The best case for simd-json on an input it may not mutate: the copy goes into a
    // buffer kept across iterations and simd-json's own scratch (`Buffers`) is reused too,
    // as our peer reuses its arena.
    let mut scratch = Vec::with_capacity(corpus.bytes.len());
    let mut buffers = simd_json::Buffers::new(corpus.bytes.len());
    peers.push(slice(
        "simd_json_value_reuse",
        move |i| {
            scratch.clear();
            scratch.extend_from_slice(i);
            let v = simd_json::to_borrowed_value_with_buffers(&mut scratch, &mut buffers);
            drop(black_box(v.expect("simd-json value")));
        },
        |i| {
            let mut copy = i.to_vec();
            let mut buffers = simd_json::Buffers::default();
            let v = simd_json::to_borrowed_value_with_buffers(&mut copy, &mut buffers)
                .map_err(|e| e.to_string())?;
            Ok(Some(simd_value::summary(&v)))
        },
    ));

    peers.push(slice(
        "sonic_rs_borrowed",
        |i| drop(black_box(borrowed::sonic_lazy::parse(i).expect("sonic-rs"))),
        |i| {
            let r = borrowed::sonic_lazy::parse(i).map_err(|e| e.to_string())?;
            Ok(Some(borrowed::sonic_lazy::summary(&r)))
        },
    ));

    peers.push(slice(
        "limit_memchr2",
        |i| {
            black_box(limits::memchr2_count(i));
        },
        move |i| {
            let got = limits::memchr2_count(i);
            let hits = limits::naive_count(i);
            if got == hits {
                Ok(None)
            } else {
                Err(format!("memchr2 found {got} hits, a byte scan {hits}"))
            }
        },
    ));
    // Room for the longest document of a rotation (the others differ by a few percent).
    let mut buf = vec![0u8; corpus.bytes.len() * 2];
    peers.push(slice(
        "limit_memcpy",
        move |i| {
            limits::memcpy_into(&mut buf, i);
            black_box(&buf);
        },
        |i| {
            let mut b = vec![0u8; i.len()];
            limits::memcpy_into(&mut b, i);
            if b == i {
                Ok(None)
            } else {
                Err("copy differs".into())
            }
        },
    ));

    (peers, notes)
}
