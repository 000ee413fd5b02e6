//! Owned Rust types for the AG-UI 1.0 protobuf messages, derived with `prost` (the peer the
//! `proto` bench compares against). Written from the field facts of the `.proto` files in
//! `@ag-ui/proto` 1.0.0 (message names, field numbers, types, proto3 `optional`); no build-time
//! `protoc`. `google.protobuf.Value` / `Struct` are `prost-types`'.
#![allow(dead_code, clippy::enum_variant_names, clippy::large_enum_variant)]

#[derive(Clone, PartialEq, prost::Message)]
pub struct TextInputPart {
    #[prost(string, tag = "1")]
    pub text: String,
    #[prost(string, optional, tag = "2")]
    pub id: Option<String>,
    #[prost(message, optional, tag = "3")]
    pub metadata: Option<prost_types::Value>,
}

#[derive(Clone, PartialEq, prost::Message)]
pub struct ImageInputPart {
    #[prost(message, optional, tag = "1")]
    pub source: Option<InputContentSource>,
    #[prost(message, optional, tag = "2")]
    pub metadata: Option<prost_types::Value>,
    #[prost(string, optional, tag = "3")]
    pub id: Option<String>,
}

#[derive(Clone, PartialEq, prost::Message)]
pub struct InputContentDataSource {
    #[prost(string, tag = "1")]
    pub value: String,
    #[prost(string, tag = "2")]
    pub mime_type: String,
}

#[derive(Clone, PartialEq, prost::Message)]
pub struct InputContentUrlSource {
    #[prost(string, tag = "1")]
    pub value: String,
    #[prost(string, optional, tag = "2")]
    pub mime_type: Option<String>,
}

#[derive(Clone, PartialEq, prost::Message)]
pub struct InputContentFileSource {
    #[prost(string, tag = "1")]
    pub value: String,
    #[prost(string, optional, tag = "2")]
    pub provider: Option<String>,
    #[prost(string, optional, tag = "3")]
    pub mime_type: Option<String>,
}

#[derive(Clone, PartialEq, prost::Message)]
pub struct InputContentSource {
    #[prost(message, optional, tag = "1")]
    pub data: Option<InputContentDataSource>,
    #[prost(message, optional, tag = "2")]
    pub url: Option<InputContentUrlSource>,
    #[prost(message, optional, tag = "3")]
    pub file: Option<InputContentFileSource>,
}

#[derive(Clone, PartialEq, prost::Message)]
pub struct AudioInputPart {
    #[prost(message, optional, tag = "1")]
    pub source: Option<InputContentSource>,
    #[prost(message, optional, tag = "2")]
    pub metadata: Option<prost_types::Value>,
    #[prost(string, optional, tag = "3")]
    pub id: Option<String>,
}

#[derive(Clone, PartialEq, prost::Message)]
pub struct VideoInputPart {
    #[prost(message, optional, tag = "1")]
    pub source: Option<InputContentSource>,
    #[prost(message, optional, tag = "2")]
    pub metadata: Option<prost_types::Value>,
    #[prost(string, optional, tag = "3")]
    pub id: Option<String>,
}

#[derive(Clone, PartialEq, prost::Message)]
pub struct DocumentInputPart {
    #[prost(message, optional, tag = "1")]
    pub source: Option<InputContentSource>,
    #[prost(message, optional, tag = "2")]
    pub metadata: Option<prost_types::Value>,
    #[prost(string, optional, tag = "3")]
    pub id: Option<String>,
}

#[derive(Clone, PartialEq, prost::Message)]
pub struct InputContent {
    #[prost(message, optional, tag = "1")]
    pub text: Option<TextInputPart>,
    #[prost(message, optional, tag = "2")]
    pub image: Option<ImageInputPart>,
    #[prost(message, optional, tag = "3")]
    pub audio: Option<AudioInputPart>,
    #[prost(message, optional, tag = "4")]
    pub video: Option<VideoInputPart>,
    #[prost(message, optional, tag = "5")]
    pub document: Option<DocumentInputPart>,
}

#[derive(Clone, PartialEq, prost::Message)]
pub struct ToolCall {
    #[prost(string, tag = "1")]
    pub id: String,
    #[prost(string, tag = "2")]
    pub r#type: String,
    #[prost(message, optional, tag = "3")]
    pub function: Option<ToolCallFunction>,
    #[prost(message, optional, tag = "4")]
    pub metadata: Option<prost_types::Struct>,
    #[prost(string, optional, tag = "5")]
    pub encrypted_value: Option<String>,
}

#[derive(Clone, PartialEq, prost::Message)]
pub struct ToolCallFunction {
    #[prost(string, tag = "1")]
    pub name: String,
    #[prost(string, tag = "2")]
    pub arguments: String,
}

#[derive(Clone, PartialEq, prost::Message)]
pub struct Message {
    #[prost(string, tag = "1")]
    pub id: String,
    #[prost(string, tag = "2")]
    pub role: String,
    #[prost(string, optional, tag = "3")]
    pub content: Option<String>,
    #[prost(string, optional, tag = "4")]
    pub name: Option<String>,
    #[prost(message, repeated, tag = "5")]
    pub tool_calls: Vec<ToolCall>,
    #[prost(string, optional, tag = "6")]
    pub tool_call_id: Option<String>,
    #[prost(string, optional, tag = "7")]
    pub error: Option<String>,
    #[prost(message, repeated, tag = "8")]
    pub content_parts: Vec<InputContent>,
    #[prost(message, optional, tag = "9")]
    pub metadata: Option<prost_types::Struct>,
    #[prost(string, optional, tag = "10")]
    pub subagent_run_id: Option<String>,
    #[prost(string, optional, tag = "11")]
    pub encrypted_value: Option<String>,
    #[prost(string, optional, tag = "12")]
    pub activity_type: Option<String>,
    #[prost(message, optional, tag = "13")]
    pub activity_content: Option<prost_types::Struct>,
}

#[derive(Clone, PartialEq, prost::Message)]
pub struct Tool {
    #[prost(string, tag = "1")]
    pub name: String,
    #[prost(string, tag = "2")]
    pub description: String,
    #[prost(message, optional, tag = "3")]
    pub parameters: Option<prost_types::Value>,
    #[prost(message, optional, tag = "4")]
    pub metadata: Option<prost_types::Struct>,
}

#[derive(Clone, PartialEq, prost::Message)]
pub struct Context {
    #[prost(string, tag = "1")]
    pub description: String,
    #[prost(string, tag = "2")]
    pub value: String,
}

#[derive(Clone, PartialEq, prost::Message)]
pub struct ResumeEntry {
    #[prost(string, tag = "1")]
    pub interrupt_id: String,
    #[prost(string, tag = "2")]
    pub status: String,
    #[prost(message, optional, tag = "3")]
    pub payload: Option<prost_types::Value>,
    #[prost(message, optional, tag = "4")]
    pub metadata: Option<prost_types::Struct>,
}

#[derive(Clone, PartialEq, prost::Message)]
pub struct RunAgentInput {
    #[prost(string, tag = "1")]
    pub thread_id: String,
    #[prost(string, tag = "2")]
    pub run_id: String,
    #[prost(string, optional, tag = "3")]
    pub parent_run_id: Option<String>,
    #[prost(message, optional, tag = "4")]
    pub state: Option<prost_types::Value>,
    #[prost(message, repeated, tag = "5")]
    pub messages: Vec<Message>,
    #[prost(message, repeated, tag = "6")]
    pub tools: Vec<Tool>,
    #[prost(message, repeated, tag = "7")]
    pub context: Vec<Context>,
    #[prost(message, optional, tag = "8")]
    pub forwarded_props: Option<prost_types::Value>,
    #[prost(message, repeated, tag = "9")]
    pub resume: Vec<ResumeEntry>,
    #[prost(string, optional, tag = "10")]
    pub protocol_version: Option<String>,
}

#[derive(Clone, PartialEq, prost::Message)]
pub struct Interrupt {
    #[prost(string, tag = "1")]
    pub id: String,
    #[prost(string, tag = "2")]
    pub reason: String,
    #[prost(string, optional, tag = "3")]
    pub message: Option<String>,
    #[prost(string, optional, tag = "4")]
    pub tool_call_id: Option<String>,
    #[prost(message, optional, tag = "5")]
    pub response_schema: Option<prost_types::Value>,
    #[prost(string, optional, tag = "6")]
    pub expires_at: Option<String>,
    #[prost(message, optional, tag = "7")]
    pub metadata: Option<prost_types::Value>,
    #[prost(string, optional, tag = "8")]
    pub subagent_run_id: Option<String>,
}

#[derive(Clone, PartialEq, prost::Message)]
pub struct BaseEvent {
    #[prost(int32, tag = "1")]
    pub r#type: i32,
    #[prost(int64, optional, tag = "2")]
    pub timestamp: Option<i64>,
    #[prost(message, optional, tag = "3")]
    pub raw_event: Option<prost_types::Value>,
    #[prost(message, optional, tag = "4")]
    pub metadata: Option<prost_types::Struct>,
}

#[derive(Clone, PartialEq, prost::Message)]
pub struct TextMessageStartEvent {
    #[prost(message, optional, tag = "1")]
    pub base_event: Option<BaseEvent>,
    #[prost(string, tag = "2")]
    pub message_id: String,
    #[prost(string, optional, tag = "3")]
    pub role: Option<String>,
    #[prost(string, optional, tag = "4")]
    pub name: Option<String>,
    #[prost(string, optional, tag = "5")]
    pub subagent_run_id: Option<String>,
}

#[derive(Clone, PartialEq, prost::Message)]
pub struct TextMessageContentEvent {
    #[prost(message, optional, tag = "1")]
    pub base_event: Option<BaseEvent>,
    #[prost(string, tag = "2")]
    pub message_id: String,
    #[prost(string, tag = "3")]
    pub delta: String,
    #[prost(string, optional, tag = "4")]
    pub subagent_run_id: Option<String>,
}

#[derive(Clone, PartialEq, prost::Message)]
pub struct TextMessageEndEvent {
    #[prost(message, optional, tag = "1")]
    pub base_event: Option<BaseEvent>,
    #[prost(string, tag = "2")]
    pub message_id: String,
    #[prost(string, optional, tag = "3")]
    pub subagent_run_id: Option<String>,
}

#[derive(Clone, PartialEq, prost::Message)]
pub struct TextMessageChunkEvent {
    #[prost(message, optional, tag = "1")]
    pub base_event: Option<BaseEvent>,
    #[prost(string, optional, tag = "2")]
    pub message_id: Option<String>,
    #[prost(string, optional, tag = "3")]
    pub role: Option<String>,
    #[prost(string, optional, tag = "4")]
    pub delta: Option<String>,
    #[prost(string, optional, tag = "5")]
    pub name: Option<String>,
    #[prost(string, optional, tag = "6")]
    pub subagent_run_id: Option<String>,
}

#[derive(Clone, PartialEq, prost::Message)]
pub struct ToolCallStartEvent {
    #[prost(message, optional, tag = "1")]
    pub base_event: Option<BaseEvent>,
    #[prost(string, tag = "2")]
    pub tool_call_id: String,
    #[prost(string, tag = "3")]
    pub tool_call_name: String,
    #[prost(string, optional, tag = "4")]
    pub parent_message_id: Option<String>,
    #[prost(string, optional, tag = "5")]
    pub subagent_run_id: Option<String>,
}

#[derive(Clone, PartialEq, prost::Message)]
pub struct ToolCallArgsEvent {
    #[prost(message, optional, tag = "1")]
    pub base_event: Option<BaseEvent>,
    #[prost(string, tag = "2")]
    pub tool_call_id: String,
    #[prost(string, tag = "3")]
    pub delta: String,
    #[prost(string, optional, tag = "4")]
    pub subagent_run_id: Option<String>,
}

#[derive(Clone, PartialEq, prost::Message)]
pub struct ToolCallEndEvent {
    #[prost(message, optional, tag = "1")]
    pub base_event: Option<BaseEvent>,
    #[prost(string, tag = "2")]
    pub tool_call_id: String,
    #[prost(string, optional, tag = "3")]
    pub subagent_run_id: Option<String>,
}

#[derive(Clone, PartialEq, prost::Message)]
pub struct ToolCallChunkEvent {
    #[prost(message, optional, tag = "1")]
    pub base_event: Option<BaseEvent>,
    #[prost(string, optional, tag = "2")]
    pub tool_call_id: Option<String>,
    #[prost(string, optional, tag = "3")]
    pub tool_call_name: Option<String>,
    #[prost(string, optional, tag = "4")]
    pub parent_message_id: Option<String>,
    #[prost(string, optional, tag = "5")]
    pub delta: Option<String>,
    #[prost(string, optional, tag = "6")]
    pub subagent_run_id: Option<String>,
}

#[derive(Clone, PartialEq, prost::Message)]
pub struct ToolCallResultEvent {
    #[prost(message, optional, tag = "1")]
    pub base_event: Option<BaseEvent>,
    #[prost(string, optional, tag = "2")]
    pub subagent_run_id: Option<String>,
    #[prost(string, tag = "3")]
    pub message_id: String,
    #[prost(string, tag = "4")]
    pub tool_call_id: String,
    #[prost(string, optional, tag = "5")]
    pub content: Option<String>,
    #[prost(string, optional, tag = "6")]
    pub role: Option<String>,
    #[prost(message, repeated, tag = "7")]
    pub content_parts: Vec<InputContent>,
}

#[derive(Clone, PartialEq, prost::Message)]
pub struct StateSnapshotEvent {
    #[prost(message, optional, tag = "1")]
    pub base_event: Option<BaseEvent>,
    #[prost(message, optional, tag = "2")]
    pub snapshot: Option<prost_types::Value>,
    #[prost(string, optional, tag = "3")]
    pub subagent_run_id: Option<String>,
}

#[derive(Clone, PartialEq, prost::Message)]
pub struct StateDeltaEvent {
    #[prost(message, optional, tag = "1")]
    pub base_event: Option<BaseEvent>,
    #[prost(message, repeated, tag = "2")]
    pub delta: Vec<JsonPatchOperation>,
    #[prost(string, optional, tag = "3")]
    pub subagent_run_id: Option<String>,
}

#[derive(Clone, PartialEq, prost::Message)]
pub struct MessagesSnapshotEvent {
    #[prost(message, optional, tag = "1")]
    pub base_event: Option<BaseEvent>,
    #[prost(message, repeated, tag = "2")]
    pub messages: Vec<Message>,
}

#[derive(Clone, PartialEq, prost::Message)]
pub struct ActivitySnapshotEvent {
    #[prost(message, optional, tag = "1")]
    pub base_event: Option<BaseEvent>,
    #[prost(string, optional, tag = "2")]
    pub subagent_run_id: Option<String>,
    #[prost(string, tag = "3")]
    pub message_id: String,
    #[prost(string, tag = "4")]
    pub activity_type: String,
    #[prost(message, optional, tag = "5")]
    pub content: Option<prost_types::Struct>,
    #[prost(bool, optional, tag = "6")]
    pub replace: Option<bool>,
}

#[derive(Clone, PartialEq, prost::Message)]
pub struct ActivityDeltaEvent {
    #[prost(message, optional, tag = "1")]
    pub base_event: Option<BaseEvent>,
    #[prost(string, optional, tag = "2")]
    pub subagent_run_id: Option<String>,
    #[prost(string, tag = "3")]
    pub message_id: String,
    #[prost(string, tag = "4")]
    pub activity_type: String,
    #[prost(message, repeated, tag = "5")]
    pub patch: Vec<JsonPatchOperation>,
}

#[derive(Clone, PartialEq, prost::Message)]
pub struct RawEvent {
    #[prost(message, optional, tag = "1")]
    pub base_event: Option<BaseEvent>,
    #[prost(message, optional, tag = "2")]
    pub event: Option<prost_types::Value>,
    #[prost(string, optional, tag = "3")]
    pub source: Option<String>,
    #[prost(string, optional, tag = "4")]
    pub subagent_run_id: Option<String>,
}

#[derive(Clone, PartialEq, prost::Message)]
pub struct CustomEvent {
    #[prost(message, optional, tag = "1")]
    pub base_event: Option<BaseEvent>,
    #[prost(string, tag = "2")]
    pub name: String,
    #[prost(message, optional, tag = "3")]
    pub value: Option<prost_types::Value>,
    #[prost(string, optional, tag = "4")]
    pub subagent_run_id: Option<String>,
}

#[derive(Clone, PartialEq, prost::Message)]
pub struct RunStartedEvent {
    #[prost(message, optional, tag = "1")]
    pub base_event: Option<BaseEvent>,
    #[prost(string, tag = "2")]
    pub thread_id: String,
    #[prost(string, tag = "3")]
    pub run_id: String,
    #[prost(string, optional, tag = "4")]
    pub parent_run_id: Option<String>,
    #[prost(message, optional, tag = "5")]
    pub input: Option<RunAgentInput>,
    #[prost(string, optional, tag = "6")]
    pub protocol_version: Option<String>,
}

#[derive(Clone, PartialEq, prost::Message)]
pub struct RunFinishedEvent {
    #[prost(message, optional, tag = "1")]
    pub base_event: Option<BaseEvent>,
    #[prost(string, tag = "2")]
    pub thread_id: String,
    #[prost(string, tag = "3")]
    pub run_id: String,
    #[prost(message, optional, tag = "4")]
    pub result: Option<prost_types::Value>,
    #[prost(string, tag = "5")]
    pub outcome: String,
    #[prost(message, repeated, tag = "6")]
    pub interrupts: Vec<Interrupt>,
    #[prost(message, repeated, tag = "7")]
    pub usage: Vec<Usage>,
    #[prost(string, repeated, tag = "8")]
    pub pending_tool_call_ids: Vec<String>,
}

#[derive(Clone, PartialEq, prost::Message)]
pub struct RunErrorEvent {
    #[prost(message, optional, tag = "1")]
    pub base_event: Option<BaseEvent>,
    #[prost(string, optional, tag = "2")]
    pub code: Option<String>,
    #[prost(string, tag = "3")]
    pub message: String,
    #[prost(message, repeated, tag = "4")]
    pub usage: Vec<Usage>,
}

#[derive(Clone, PartialEq, prost::Message)]
pub struct StepStartedEvent {
    #[prost(message, optional, tag = "1")]
    pub base_event: Option<BaseEvent>,
    #[prost(string, tag = "2")]
    pub step_name: String,
    #[prost(string, optional, tag = "3")]
    pub subagent_run_id: Option<String>,
}

#[derive(Clone, PartialEq, prost::Message)]
pub struct StepFinishedEvent {
    #[prost(message, optional, tag = "1")]
    pub base_event: Option<BaseEvent>,
    #[prost(string, tag = "2")]
    pub step_name: String,
    #[prost(string, optional, tag = "3")]
    pub subagent_run_id: Option<String>,
}

#[derive(Clone, PartialEq, prost::Message)]
pub struct ReasoningStartEvent {
    #[prost(message, optional, tag = "1")]
    pub base_event: Option<BaseEvent>,
    #[prost(string, optional, tag = "2")]
    pub subagent_run_id: Option<String>,
    #[prost(string, tag = "3")]
    pub message_id: String,
}

#[derive(Clone, PartialEq, prost::Message)]
pub struct ReasoningMessageStartEvent {
    #[prost(message, optional, tag = "1")]
    pub base_event: Option<BaseEvent>,
    #[prost(string, optional, tag = "2")]
    pub subagent_run_id: Option<String>,
    #[prost(string, tag = "3")]
    pub message_id: String,
    #[prost(string, tag = "4")]
    pub role: String,
}

#[derive(Clone, PartialEq, prost::Message)]
pub struct ReasoningMessageContentEvent {
    #[prost(message, optional, tag = "1")]
    pub base_event: Option<BaseEvent>,
    #[prost(string, optional, tag = "2")]
    pub subagent_run_id: Option<String>,
    #[prost(string, tag = "3")]
    pub message_id: String,
    #[prost(string, tag = "4")]
    pub delta: String,
}

#[derive(Clone, PartialEq, prost::Message)]
pub struct ReasoningMessageEndEvent {
    #[prost(message, optional, tag = "1")]
    pub base_event: Option<BaseEvent>,
    #[prost(string, optional, tag = "2")]
    pub subagent_run_id: Option<String>,
    #[prost(string, tag = "3")]
    pub message_id: String,
}

#[derive(Clone, PartialEq, prost::Message)]
pub struct ReasoningMessageChunkEvent {
    #[prost(message, optional, tag = "1")]
    pub base_event: Option<BaseEvent>,
    #[prost(string, optional, tag = "2")]
    pub subagent_run_id: Option<String>,
    #[prost(string, optional, tag = "3")]
    pub message_id: Option<String>,
    #[prost(string, optional, tag = "4")]
    pub delta: Option<String>,
}

#[derive(Clone, PartialEq, prost::Message)]
pub struct ReasoningEndEvent {
    #[prost(message, optional, tag = "1")]
    pub base_event: Option<BaseEvent>,
    #[prost(string, optional, tag = "2")]
    pub subagent_run_id: Option<String>,
    #[prost(string, tag = "3")]
    pub message_id: String,
}

#[derive(Clone, PartialEq, prost::Message)]
pub struct ReasoningEncryptedValueEvent {
    #[prost(message, optional, tag = "1")]
    pub base_event: Option<BaseEvent>,
    #[prost(string, optional, tag = "2")]
    pub subagent_run_id: Option<String>,
    #[prost(string, tag = "3")]
    pub subtype: String,
    #[prost(string, tag = "4")]
    pub entity_id: String,
    #[prost(string, tag = "5")]
    pub encrypted_value: String,
}

#[derive(Clone, PartialEq, prost::Message)]
pub struct SubagentStartedEvent {
    #[prost(message, optional, tag = "1")]
    pub base_event: Option<BaseEvent>,
    #[prost(string, tag = "2")]
    pub subagent_run_id: String,
    #[prost(string, tag = "3")]
    pub name: String,
    #[prost(string, optional, tag = "4")]
    pub description: Option<String>,
    #[prost(string, optional, tag = "5")]
    pub parent_subagent_run_id: Option<String>,
    #[prost(string, optional, tag = "6")]
    pub parent_tool_call_id: Option<String>,
    #[prost(string, optional, tag = "7")]
    pub parent_message_id: Option<String>,
}

#[derive(Clone, PartialEq, prost::Message)]
pub struct SubagentFinishedEvent {
    #[prost(message, optional, tag = "1")]
    pub base_event: Option<BaseEvent>,
    #[prost(string, tag = "2")]
    pub subagent_run_id: String,
    #[prost(message, optional, tag = "3")]
    pub result: Option<prost_types::Value>,
    #[prost(string, tag = "4")]
    pub outcome: String,
    #[prost(string, repeated, tag = "5")]
    pub interrupt_ids: Vec<String>,
}

#[derive(Clone, PartialEq, prost::Message)]
pub struct SubagentErrorEvent {
    #[prost(message, optional, tag = "1")]
    pub base_event: Option<BaseEvent>,
    #[prost(string, tag = "2")]
    pub subagent_run_id: String,
    #[prost(string, tag = "3")]
    pub message: String,
    #[prost(string, optional, tag = "4")]
    pub code: Option<String>,
}

#[derive(Clone, PartialEq, prost::Message)]
pub struct Usage {
    #[prost(string, optional, tag = "1")]
    pub provider: Option<String>,
    #[prost(string, optional, tag = "2")]
    pub model: Option<String>,
    #[prost(int64, optional, tag = "3")]
    pub input_tokens: Option<i64>,
    #[prost(int64, optional, tag = "4")]
    pub output_tokens: Option<i64>,
    #[prost(int64, optional, tag = "5")]
    pub total_tokens: Option<i64>,
    #[prost(int64, optional, tag = "6")]
    pub reasoning_tokens: Option<i64>,
    #[prost(int64, optional, tag = "7")]
    pub cached_input_tokens: Option<i64>,
    #[prost(int64, optional, tag = "8")]
    pub cache_write_input_tokens: Option<i64>,
}

#[derive(Clone, PartialEq, prost::Message)]
pub struct JsonPatchOperation {
    #[prost(int32, tag = "1")]
    pub op: i32,
    #[prost(string, tag = "2")]
    pub path: String,
    #[prost(string, optional, tag = "3")]
    pub from: Option<String>,
    #[prost(message, optional, tag = "4")]
    pub value: Option<prost_types::Value>,
}

#[derive(Clone, PartialEq, prost::Message)]
pub struct Event {
    #[prost(
        oneof = "Kind",
        tags = "1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31"
    )]
    pub kind: Option<Kind>,
}

#[derive(Clone, PartialEq, prost::Oneof)]
pub enum Kind {
    #[prost(message, tag = "1")]
    TextMessageStart(TextMessageStartEvent),
    #[prost(message, tag = "2")]
    TextMessageContent(TextMessageContentEvent),
    #[prost(message, tag = "3")]
    TextMessageEnd(TextMessageEndEvent),
    #[prost(message, tag = "4")]
    ToolCallStart(ToolCallStartEvent),
    #[prost(message, tag = "5")]
    ToolCallArgs(ToolCallArgsEvent),
    #[prost(message, tag = "6")]
    ToolCallEnd(ToolCallEndEvent),
    #[prost(message, tag = "7")]
    StateSnapshot(StateSnapshotEvent),
    #[prost(message, tag = "8")]
    StateDelta(StateDeltaEvent),
    #[prost(message, tag = "9")]
    MessagesSnapshot(MessagesSnapshotEvent),
    #[prost(message, tag = "10")]
    Raw(RawEvent),
    #[prost(message, tag = "11")]
    Custom(CustomEvent),
    #[prost(message, tag = "12")]
    RunStarted(RunStartedEvent),
    #[prost(message, tag = "13")]
    RunFinished(RunFinishedEvent),
    #[prost(message, tag = "14")]
    RunError(RunErrorEvent),
    #[prost(message, tag = "15")]
    StepStarted(StepStartedEvent),
    #[prost(message, tag = "16")]
    StepFinished(StepFinishedEvent),
    #[prost(message, tag = "17")]
    TextMessageChunk(TextMessageChunkEvent),
    #[prost(message, tag = "18")]
    ToolCallChunk(ToolCallChunkEvent),
    #[prost(message, tag = "19")]
    SubagentStarted(SubagentStartedEvent),
    #[prost(message, tag = "20")]
    SubagentFinished(SubagentFinishedEvent),
    #[prost(message, tag = "21")]
    SubagentError(SubagentErrorEvent),
    #[prost(message, tag = "22")]
    ToolCallResult(ToolCallResultEvent),
    #[prost(message, tag = "23")]
    ActivitySnapshot(ActivitySnapshotEvent),
    #[prost(message, tag = "24")]
    ActivityDelta(ActivityDeltaEvent),
    #[prost(message, tag = "25")]
    ReasoningStart(ReasoningStartEvent),
    #[prost(message, tag = "26")]
    ReasoningMessageStart(ReasoningMessageStartEvent),
    #[prost(message, tag = "27")]
    ReasoningMessageContent(ReasoningMessageContentEvent),
    #[prost(message, tag = "28")]
    ReasoningMessageEnd(ReasoningMessageEndEvent),
    #[prost(message, tag = "29")]
    ReasoningMessageChunk(ReasoningMessageChunkEvent),
    #[prost(message, tag = "30")]
    ReasoningEnd(ReasoningEndEvent),
    #[prost(message, tag = "31")]
    ReasoningEncryptedValue(ReasoningEncryptedValueEvent),
}
