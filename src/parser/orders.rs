//! Wire orders the templates share: a message, tool call or function read by a template in
//! an order that is not canonical (keys sorted alphabetically, as serde_json's `Value`, Go's
//! maps and Python's `sort_keys=True` write them) points at one of these records instead of
//! writing its order into the arena (see [`Obj::book_head_in_order`](super::Obj)).

use crate::model::ExtraParts;

/// `content`, `id`, `role` of a tool or reasoning message (`content` is field 3).
static CONTENT_3: ExtraParts<'static> = ExtraParts::order_only(&[3, 1, 2]);
/// ... then a tool message's `toolCallId` (4).
static CONTENT_3_THEN_4: ExtraParts<'static> = ExtraParts::order_only(&[3, 1, 2, 4]);
/// `content`, `id`, `role` of an activity message (`content` is field 4).
static CONTENT_4: ExtraParts<'static> = ExtraParts::order_only(&[4, 1, 2]);
/// `content`, `id`, `role` of a developer, system, user or assistant message (field 6).
static CONTENT_6: ExtraParts<'static> = ExtraParts::order_only(&[6, 1, 2]);
/// ... then an assistant's `toolCalls` (7).
static CONTENT_6_THEN_7: ExtraParts<'static> = ExtraParts::order_only(&[6, 1, 2, 7]);

/// A tool call's `function`, `id`, `type` (`ToolCall::FIELDS`: `id` 0, `type` 1, `function` 2).
pub(crate) static FUNCTION_ID_TYPE: ExtraParts<'static> = ExtraParts::order_only(&[2, 0, 1]);
/// A function's `arguments`, `name` (`FunctionCall::FIELDS`: `name` 0, `arguments` 1).
pub(crate) static ARGUMENTS_NAME: ExtraParts<'static> = ExtraParts::order_only(&[1, 0]);

/// The order `content`, `id`, `role` of a message whose `content` is field `c` of its role
/// (`id` is 1 and `role` 2 in every role).
pub(crate) fn content_id_role(c: usize) -> Option<&'static ExtraParts<'static>> {
    match c {
        3 => Some(&CONTENT_3),
        4 => Some(&CONTENT_4),
        6 => Some(&CONTENT_6),
        _ => None,
    }
}

/// The shared order of `parts`'s fields followed by field `id`, where there is one (the
/// fields senders that sort their keys put after `role`).
pub(crate) fn then(
    parts: &'static ExtraParts<'static>,
    id: u32,
) -> Option<&'static ExtraParts<'static>> {
    match (parts.order_ids(), id) {
        ([3, 1, 2], 4) => Some(&CONTENT_3_THEN_4),
        ([6, 1, 2], 7) => Some(&CONTENT_6_THEN_7),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn extended_orders_are_the_order_then_the_field() {
        for c in [3, 4, 6] {
            let head = content_id_role(c).unwrap();
            assert_eq!(head.order_ids(), [c as u32, 1, 2]);
            for id in 0..64 {
                if let Some(next) = then(head, id) {
                    assert_eq!(next.order_ids(), [c as u32, 1, 2, id]);
                }
            }
        }
        assert!(then(&CONTENT_6, 7).is_some() && then(&CONTENT_3, 4).is_some());
        assert!(then(&CONTENT_6, 4).is_none() && then(&CONTENT_3_THEN_4, 5).is_none());
        assert_eq!(content_id_role(5).map(|p| p.order_ids()), None);
    }
}
