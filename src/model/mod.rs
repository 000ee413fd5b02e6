//! The borrowed data model of the AG-UI protocol.
//!
//! Every type here borrows from the input it was parsed from (`'a`): strings are [`Str`]
//! (escaped text, unescaped on demand), JSON-valued fields are [`RawJson`] (validated text,
//! forwarded byte for byte), lists are [`List`] (a slice in the parse arena), and each object
//! keeps the fields the protocol does not define in its [`Extra`]. The model holds no parsing
//! code; see [`crate::parser`] for that and [`crate::writer`] for the way back to JSON.
//!
//! Field names follow the protocol's JSON names in snake case (`threadId` → `thread_id`).
//!
//! The model is small, since a parse fills the arena with it: a [`Str`], a [`RawJson`], a
//! [`List`] and an [`Extra`] are two words each (16 bytes on 64-bit targets, and so is an
//! `Option` of a `Str` or a `RawJson`), a [`Message`] 144 bytes, a [`ToolCall`] 128. Parsing
//! the bench's conversations (1 000 to 20 000 messages of about 430 bytes) fills 0.6 to 0.75
//! bytes of arena per byte of input, strings left escaped.
//!
//! Every type is `Send` and `Sync`.

mod capabilities;
mod content;
mod extra;
mod input;
mod list;
mod message;
mod raw_json;
mod string;
mod text;
mod tree;
mod unescape;

pub use capabilities::*;
pub use content::*;
pub(crate) use extra::{EXTRA_BASE, ExtraParts};
pub use extra::{Extra, Field};
pub use input::*;
pub use list::List;
pub use message::*;
pub use raw_json::{JsonKind, RawJson};
#[allow(unused_imports)]
pub(crate) use raw_json::{has_ws_outside_strings, minify_into};
pub use string::{Str, escape_into};
pub(crate) use unescape::{unescape as unescape_fast, unescape_lossy, unescape_scalar};

/// Conversion of a borrowed model value into one that owns its data (`'static`).
pub(crate) trait IntoOwned {
    type Owned: 'static;
    fn into_owned_value(self) -> Self::Owned;
}

impl<T: IntoOwned> IntoOwned for Option<T> {
    type Owned = Option<T::Owned>;
    fn into_owned_value(self) -> Self::Owned {
        self.map(IntoOwned::into_owned_value)
    }
}

impl<T: IntoOwned + Clone> IntoOwned for List<'_, T> {
    type Owned = List<'static, T::Owned>;
    fn into_owned_value(self) -> Self::Owned {
        self.map(IntoOwned::into_owned_value)
    }
}

/// Implements `IntoOwned` for types that borrow nothing, as themselves.
macro_rules! copy_owned {
    ($($t:ty),* $(,)?) => {$(
        impl $crate::model::IntoOwned for $t {
            type Owned = $t;
            fn into_owned_value(self) -> $t { self }
        }
    )*};
}
pub(crate) use copy_owned;
copy_owned!(bool, u64, i64, Role, ResumeStatus);

/// Implements `IntoOwned` for model types that have an inherent `into_owned(self) -> T<'static>`.
macro_rules! owned_by_method {
    ($($t:ident),* $(,)?) => {$(
        impl $crate::model::IntoOwned for $t<'_> {
            type Owned = $t<'static>;
            fn into_owned_value(self) -> $t<'static> { self.into_owned() }
        }
    )*};
}
pub(crate) use owned_by_method;
owned_by_method!(
    Str,
    RawJson,
    Extra,
    Content,
    InputContent,
    InputContentSource,
    Message
);

/// Implements `into_owned` for a model struct, field by field.
macro_rules! owned_struct {
    ($name:ident { $($field:ident),* $(,)? }) => {
        impl<'a> $name<'a> {
            /// Copies everything borrowed from the input, giving a value that owns its data.
            pub fn into_owned(self) -> $name<'static> {
                use $crate::model::IntoOwned as _;
                $name { $($field: self.$field.into_owned_value()),* }
            }
        }
        $crate::model::owned_by_method!($name);
    };
}
pub(crate) use owned_struct;

#[cfg(test)]
mod size_tests {
    use super::*;

    /// The sizes the module docs give: a regression here costs every parse arena.
    #[test]
    #[cfg(target_pointer_width = "64")]
    fn the_model_stays_small() {
        use std::mem::size_of;
        assert_eq!(size_of::<Str<'_>>(), 16);
        assert_eq!(size_of::<Option<Str<'_>>>(), 16);
        assert_eq!(size_of::<RawJson<'_>>(), 16);
        assert_eq!(size_of::<Option<RawJson<'_>>>(), 16);
        assert_eq!(size_of::<List<'_, Message<'_>>>(), 16);
        assert_eq!(size_of::<Extra<'_>>(), 16);
        assert!(
            size_of::<Message<'_>>() <= 144,
            "{}",
            size_of::<Message<'_>>()
        );
        assert!(
            size_of::<ToolCall<'_>>() <= 128,
            "{}",
            size_of::<ToolCall<'_>>()
        );
        assert!(
            size_of::<InputContent<'_>>() <= 120,
            "{}",
            size_of::<InputContent<'_>>()
        );
    }

    #[test]
    fn send_and_sync() {
        fn both<T: Send + Sync>() {}
        both::<RunAgentInput<'static>>();
        both::<Message<'static>>();
        both::<Str<'static>>();
        both::<RawJson<'static>>();
        both::<List<'static, ToolCall<'static>>>();
        both::<Extra<'static>>();
        both::<AgentCapabilities<'static>>();
    }
}
