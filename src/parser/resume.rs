//! What the typed parser remembers between two passes over a growing buffer.
//!
//! A pass over the bytes received so far ends with `UnexpectedEof` where they run out. While
//! that error travels up the call stack, each resumable level saves its state here: the
//! top-level object (fields read so far, the field being read) and every list on the way
//! (items built so far, where the next one starts). The next pass starts from the top again,
//! and each level, finding its state, jumps to where it stopped: re-descending costs the few
//! bytes of the objects in between (a message's `id` and `role` before its `content`), and long
//! strings and raw values are crossed through the scanner's slots
//! ([`crate::scanner::resume`]).
//!
//! Saved items borrow the buffer: this is sound because the streaming buffer
//! ([`crate::stream::BodyBuf`]) never moves or changes a byte it has handed out.

use bumpalo::collections::Vec as BumpVec;

use super::Obj;
use crate::model::{
    Context, InputContent, List, Message, ResumeEntry, RunAgentInput, Str, Tool, ToolCall,
};
use crate::scanner::StrToken;

/// Saved state, keyed by the offsets where each level starts.
#[derive(Default)]
pub(crate) struct Frames<'a> {
    pub(crate) top: Option<TopFrame<'a>>,
    pub(crate) lists: Vec<ListFrame<'a>>,
    /// Number of the current pass.
    pub(crate) pass: u64,
}

impl<'a> Frames<'a> {
    /// Takes the saved state of the list that starts at `start`.
    pub(crate) fn take_list(&mut self, start: usize) -> Option<ListFrame<'a>> {
        let i = self.lists.iter().position(|f| f.start == start)?;
        Some(self.lists.remove(i))
    }

    /// The outermost list saved in this pass (the one whose unfinished item holds the end of
    /// the buffer at the highest level).
    pub(crate) fn outermost_list(&mut self) -> Option<&mut ListFrame<'a>> {
        let pass = self.pass;
        self.lists.iter_mut().rev().find(|f| f.pass == pass)
    }
}

/// The top-level object, between two fields or inside one.
pub(crate) struct TopFrame<'a> {
    pub(crate) obj: Obj<'a>,
    pub(crate) doc: RunAgentInput<'a>,
    pub(crate) thread_id: Option<Str<'a>>,
    pub(crate) run_id: Option<Str<'a>>,
    pub(crate) messages: Option<List<'a, Message<'a>>>,
    /// Where to continue: before the next key, or at the value of `field`.
    pub(crate) pos: usize,
    /// The field whose value starts at `pos` (its index among the known fields, and its key).
    pub(crate) field: Option<(Option<usize>, StrToken<'a>)>,
}

impl<'a> TopFrame<'a> {
    pub(crate) fn new(obj: Obj<'a>) -> TopFrame<'a> {
        TopFrame {
            obj,
            doc: RunAgentInput::default(),
            thread_id: None,
            run_id: None,
            messages: None,
            pos: 0,
            field: None,
        }
    }
}

/// Where a list stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ListStep {
    /// Just after `[`: the list may still turn out empty.
    First,
    /// At the start of an item (after `[` and its first item, or after a `,`).
    Item,
    /// After an item, before `,` or `]`.
    After,
}

/// A list, between two items or inside one.
pub(crate) struct ListFrame<'a> {
    /// Offset of the `[`.
    pub(crate) start: usize,
    pub(crate) pos: usize,
    pub(crate) step: ListStep,
    pub(crate) items: Saved<'a>,
    /// Bytes read again, over all passes, while parsing the unfinished item.
    pub(crate) reread: usize,
    /// Validate the unfinished item as plain JSON until it is complete, then parse it once
    /// (set when re-reading its start costs more than it is worth).
    pub(crate) skip: bool,
    /// The pass that saved this frame.
    pub(crate) pass: u64,
}

/// The items of a list so far, for each item type that can be resumed.
pub(crate) enum Saved<'a> {
    Messages(BumpVec<'a, Message<'a>>),
    Parts(BumpVec<'a, InputContent<'a>>),
    ToolCalls(BumpVec<'a, ToolCall<'a>>),
    Tools(BumpVec<'a, Tool<'a>>),
    Contexts(BumpVec<'a, Context<'a>>),
    Resume(BumpVec<'a, ResumeEntry<'a>>),
}

/// An item type of a list that [`super::Parser::rlist`] saves and restores.
pub(crate) trait Item<'a>: Sized {
    /// Wraps the items so far.
    fn save(items: BumpVec<'a, Self>) -> Option<Saved<'a>>;
    /// Unwraps items saved by [`Item::save`] for this type.
    fn restore(saved: Saved<'a>) -> Option<BumpVec<'a, Self>>;
}

macro_rules! resumable {
    ($($ty:ident => $variant:ident),* $(,)?) => {$(
        impl<'a> Item<'a> for $ty<'a> {
            fn save(items: BumpVec<'a, Self>) -> Option<Saved<'a>> {
                Some(Saved::$variant(items))
            }
            fn restore(saved: Saved<'a>) -> Option<BumpVec<'a, Self>> {
                match saved {
                    Saved::$variant(v) => Some(v),
                    _ => None,
                }
            }
        }
    )*};
}

resumable!(
    Message => Messages,
    InputContent => Parts,
    ToolCall => ToolCalls,
    Tool => Tools,
    Context => Contexts,
    ResumeEntry => Resume,
);

/// Whether [`super::Parser::list_in`] may save and restore its items: [`Never`] for lists
/// that are only parsed one-shot (any item type), [`Resumable`] for the lists of
/// `RunAgentInput`.
pub(crate) trait Keep<'a, T> {
    fn save(items: BumpVec<'a, T>) -> Option<Saved<'a>>;
    fn restore(saved: Saved<'a>) -> Option<BumpVec<'a, T>>;
}

/// Lists whose items are never saved.
pub(crate) struct Never;

impl<'a, T> Keep<'a, T> for Never {
    fn save(_: BumpVec<'a, T>) -> Option<Saved<'a>> {
        None
    }
    fn restore(_: Saved<'a>) -> Option<BumpVec<'a, T>> {
        None
    }
}

/// Lists of an [`Item`] type.
pub(crate) struct Resumable;

impl<'a, T: Item<'a>> Keep<'a, T> for Resumable {
    fn save(items: BumpVec<'a, T>) -> Option<Saved<'a>> {
        T::save(items)
    }
    fn restore(saved: Saved<'a>) -> Option<BumpVec<'a, T>> {
        T::restore(saved)
    }
}
