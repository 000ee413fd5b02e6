//! # agui-wire
//!
//! A zero-copy parser and writer for the [AG-UI](https://docs.ag-ui.com) agent protocol: the
//! JSON that chat front ends and agent servers exchange. Built for gateways and proxies that
//! receive `RunAgentInput` bodies of many megabytes and streams of events, look at or rewrite a
//! few fields, and forward the rest.
//!
//! ```
//! use agui_wire::{RunAgentInput, Message, Bump};
//! let arena = Bump::new();
//! let body = br#"{"threadId":"thread-1","runId":"run-1","messages":[
//!   {"id":"msg-1","role":"user","content":[
//!     {"type":"text","text":"What is shown here?"},
//!     {"type":"image","source":{"type":"data","value":"iVBORw0KGgo=","mimeType":"image/png"}}]}]}"#;
//! let input = RunAgentInput::parse(body, &arena)?;
//! let Message::User(user) = &input.messages[0] else { unreachable!() };
//! let image = user.content.parts()[1].as_media().unwrap();
//! assert_eq!(image.source.mime_type().unwrap(), "image/png");
//! // The base64 payload is a slice of `body`, not a copy.
//! assert!(agui_wire::offset_in(body, image.source.value().raw().as_bytes()).is_some());
//! # Ok::<(), agui_wire::Error>(())
//! ```
//!
//! ## Map of the crate
//! | module | what it holds |
//! |---|---|
//! | [`model`] | the borrowed data model: [`RunAgentInput`], [`Message`], [`InputContent`], [`AgentCapabilities`], and the building blocks [`Str`], [`RawJson`], [`List`], [`Extra`] |
//! | [`parser`] | bytes to model: [`RunAgentInput::parse`], [`ParseOptions`], [`validate_json`] |
//! | [`events`] | the 31 AG-UI event types: [`Event`], [`Event::parse`], written with [`WriteJson`] |
//! | [`reducer`] | events to conversation: [`reducer::Reducer`] (messages and state, as the TypeScript client builds them); the order checks alone: [`reducer::EventOrder`] |
//! | `scanner` | JSON lexing and validation; its SIMD string kernel with a scalar twin |
//! | [`error`] | [`Error`]: kind, byte offset and JSON path; [`ErrorClass`]: not JSON, over a limit, or against the protocol |
//! | [`media`] | inline media: zero-copy base64 (SIMD, scalar twin), `data:` URLs, magic-byte sniffing |
//! | [`stream`] | a body arriving in chunks: [`stream::BodyParser`] over an append-only [`stream::BodyBuf`]; for async tasks [`stream::OwnedBodyParser`] and the [`stream::ParsedBody`] it finishes into (both `Send`, `'static`) |
//! | [`sse`] | Server-Sent Events framing: a chunk-fed, zero-copy decoder and an encoder |
//! | [`relay`] | a gateway's SSE relay stage: [`relay::Relay`] checks every upstream event, applies policies, ends a broken stream with `RUN_ERROR` |
//! | [`writer`] | model to compact JSON: [`to_vec`], [`write_to`], [`to_io_slices`] (vectored, zero-copy spans), [`WriteJson`] |
//! | [`edit`] | proxy edits on [`RunAgentInput`]: state, tools, context, messages, parts, media offload |
//!
//! ## Guarantees
//! - The input is never written to, and never copied: strings are slices of it (escaped
//!   strings are unescaped only on demand), JSON-valued fields are validated slices of it.
//! - Every document is fully validated: RFC 8259 grammar, UTF-8, escapes and surrogate pairs,
//!   numbers, and the protocol's rules (required fields, discriminators, no `null` where the
//!   protocol forbids it). Errors carry the byte offset and the JSON path.
//! - No recursion on input-controlled depth; limits on size, depth and counts
//!   ([`ParseOptions`]).
//! - Unknown fields are kept with their raw values, in order.
#![deny(missing_docs)]
#![deny(clippy::undocumented_unsafe_blocks)]

pub mod edit;
pub mod error;
pub mod events;
pub mod media;
pub mod model;
pub mod parser;
pub mod proto;
pub mod reducer;
pub mod relay;
mod scanner;
mod schema;
mod serde_impl;
pub mod sse;
pub mod stream;
#[cfg(test)]
mod test_support;
pub mod writer;

pub use bumpalo::Bump;
pub use edit::{EditError, PartPath};
pub use error::{Error, ErrorClass, ErrorKind, json_path_at};
pub use events::*;
pub use model::*;
pub use parser::{ParseOptions, offset_in, validate_json};
pub use writer::{WriteJson, to_io_slices, to_vec, write_all_vectored, write_to};

/// The README's Rust examples, compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
