//! Shared helpers for the agui-wire fuzz targets.
//!
//! Every target compares agui-wire with an independent oracle instead of only looking for
//! crashes; the oracles and the glue they need live here so that the targets stay short and
//! none is a copy of another:
//!
//! - [`oracle`]: what serde_json says about the same bytes (grammar verdict and value).
//! - [`to_json`]: the parsed model turned into a `serde_json::Value`, checking on the way that
//!   every string and raw value is a slice of the input (zero copy) and valid JSON.
//! - [`drive`]: the differential driver shared by the document targets (strict, lenient and
//!   tight-limit parses, error sanity).
//! - [`arb`]: whole models built from fuzz bytes with `arbitrary`, for write-then-parse.
//! - [`split`]: deterministic chunkings of an input, for one-shot versus chunked comparisons.

pub mod arb;
pub mod drive;
pub mod oracle;
pub mod split;
pub mod to_json;
