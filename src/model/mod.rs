//! The borrowed data model of the AG-UI protocol.
//!
//! Every type here borrows from the input it was parsed from (`'a`): strings are [`Str`]
//! (escaped text, unescaped on demand), JSON-valued fields are [`RawJson`] (validated text,
//! forwarded byte for byte), lists are [`List`] (a slice in the parse arena), and each object
//! keeps the fields the protocol does not define in its [`Extra`]. The model holds no parsing
//! code; see [`crate::parser`] for that and [`crate::writer`] for the way back to JSON.
//!
//! Field names follow the protocol's JSON names in snake case (`threadId` → `thread_id`).

mod capabilities;
mod content;
mod input;
mod json;
mod message;
mod tree;
mod unescape;

pub use capabilities::*;
pub use content::*;
pub use input::*;
#[allow(unused_imports)]
pub(crate) use json::{EXTRA_BASE, has_ws_outside_strings, minify_into};
pub use json::{Extra, Field, JsonKind, List, RawJson, Str, escape_into};
pub use message::*;
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
