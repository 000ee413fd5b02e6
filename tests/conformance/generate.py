#!/usr/bin/env python3
"""Python half of the agui-wire conformance corpus generator.

Run through ./regenerate, which pins the SDKs. Two phases:

  generate.py build  --work DIR   write every Python-built document (accept/,
                                  events/, reject/ inputs, samples/) and a
                                  manifest fragment into DIR
  generate.py expect --work DIR   (after generate.mjs) parse every document
                                  with the Python SDK, compare with the
                                  TypeScript results in DIR, and write the
                                  *.expected.json files, MANIFEST.json and
                                  VERSIONS.json

Documents are built with the SDK's pydantic models (ag_ui.core) and written
by the SDK's serialiser, `model_dump_json(by_alias=True)` (what
ag_ui.encoder.EventEncoder uses). `exclude_none=True` is not passed: the
1.0.0 base model already leaves out optional fields without a value, and
exclude_none would also drop unknown extra fields whose value is null.

Deterministic: no clock, no random source; dictionaries keep insertion order.
"""

import argparse
import base64
import importlib.metadata
import json
import platform
import shutil
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import flat  # noqa: E402
import media  # noqa: E402
from pydantic import TypeAdapter, ValidationError  # noqa: E402

from ag_ui.core import (  # noqa: E402
    ActivityDeltaEvent,
    ActivityMessage,
    ActivitySnapshotEvent,
    AgentCapabilities,
    AssistantMessage,
    AudioPart,
    BinaryInputContent,
    Context,
    CustomEvent,
    DataSource,
    DeveloperMessage,
    DocumentPart,
    Event,
    ExecutionCapabilities,
    FileSource,
    FunctionCall,
    HumanInTheLoopCapabilities,
    IdentityCapabilities,
    ImagePart,
    Interrupt,
    MessagesSnapshotEvent,
    MultiAgentCapabilities,
    MultimodalCapabilities,
    MultimodalInputCapabilities,
    MultimodalOutputCapabilities,
    OutputCapabilities,
    RawEvent,
    ReasoningCapabilities,
    ReasoningEncryptedValueEvent,
    ReasoningEndEvent,
    ReasoningMessage,
    ReasoningMessageChunkEvent,
    ReasoningMessageContentEvent,
    ReasoningMessageEndEvent,
    ReasoningMessageStartEvent,
    ReasoningStartEvent,
    ResumeEntry,
    RunAgentInput,
    RunErrorEvent,
    RunFinishedCancelledOutcome,
    RunFinishedEvent,
    RunFinishedInterruptOutcome,
    RunFinishedSuccessOutcome,
    RunStartedEvent,
    StateCapabilities,
    StateDeltaEvent,
    StateSnapshotEvent,
    StepFinishedEvent,
    StepStartedEvent,
    SubagentErrorEvent,
    SubagentFinishedEvent,
    SubagentFinishedSuccessOutcome,
    SubagentFinishedSuspendedOutcome,
    SubagentInfo,
    SubagentStartedEvent,
    SystemMessage,
    TextMessageChunkEvent,
    TextMessageContentEvent,
    TextMessageEndEvent,
    TextMessageStartEvent,
    TextPart,
    TokenUsage,
    Tool,
    ToolCall,
    ToolCallArgsEvent,
    ToolCallChunkEvent,
    ToolCallEndEvent,
    ToolCallResultEvent,
    ToolCallStartEvent,
    ToolMessage,
    ToolsCapabilities,
    TransportCapabilities,
    UrlSource,
    UserMessage,
    VideoPart,
)
from ag_ui.encoder import EventEncoder  # noqa: E402

REPO = HERE.parent.parent
CONF = HERE
ACCEPT, EVENTS, REJECT = CONF / "accept", CONF / "events", CONF / "reject"
SAMPLES = REPO / "samples"
INVALID = SAMPLES / "invalid"
SAMPLE_FILES = ["conversation.json", "conversation.compact.json", "capabilities.json", "run.sse",
                "legacy-binary-part.json", "legacy-binary-part.expected.json"]

EVENT_ADAPTER = TypeAdapter(Event)
TS0 = 1735689600000  # 2025-01-01T00:00:00Z in ms: a fixed base for every timestamp

MANIFEST: dict = {}


# --------------------------------------------------------------------------- helpers


def b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def sdk_json(model) -> str:
    """The SDK's own compact serialisation (the encoder's call)."""
    return model.model_dump_json(by_alias=True)


def sdk_plain(model):
    return json.loads(model.model_dump_json(by_alias=True))


def compact(value) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def write(path: Path, text: str, description: str, built_by: str, kind: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8", newline="")
    MANIFEST[str(path.relative_to(REPO))] = {
        "kind": kind,
        "built_by": built_by,
        "description": description,
    }


def kind_of(rel: str) -> str:
    """Document kind from its path: capabilities*, events/ or event-*, else RunAgentInput."""
    name = rel.rsplit("/", 1)[-1]
    if name.startswith("capabilities"):
        return "AgentCapabilities"
    if "/events/" in "/" + rel or name.startswith("event-"):
        return "Event"
    return "RunAgentInput"


def parse_json_mode(kind: str, text: str):
    if kind == "Event":
        return EVENT_ADAPTER.validate_json(text)
    cls = AgentCapabilities if kind == "AgentCapabilities" else RunAgentInput
    return cls.model_validate_json(text)


def parse_python_mode(kind: str, text: str):
    data = json.loads(text)
    if kind == "Event":
        return EVENT_ADAPTER.validate_python(data)
    cls = AgentCapabilities if kind == "AgentCapabilities" else RunAgentInput
    return cls.model_validate(data)


def sse_frames(text: str) -> list:
    """The data of every dispatched event of a text/event-stream, per the WHATWG SSE parsing rules."""
    if text.startswith("\ufeff"):
        text = text[1:]
    frames, data = [], None
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    if lines and lines[-1] == "":
        lines.pop()  # the line break that ends the last line
    for line in lines:
        if line == "":
            if data is not None:
                frames.append(data[:-1] if data.endswith("\n") else data)
            data = None
            continue
        if line.startswith(":"):
            continue
        field, _, value = line.partition(":")
        if value.startswith(" "):
            value = value[1:]
        if field == "data":
            data = (data or "") + value + "\n"
    return frames  # an event not ended by a blank line is discarded, as the standard says


# --------------------------------------------------------------------------- shared pieces

WEATHER_PARAMS = {
    "type": "object",
    "properties": {
        "city": {"type": "string", "description": "City name, e.g. \"Lyon\""},
        "unit": {"type": "string", "enum": ["celsius", "fahrenheit"], "default": "celsius"},
        "days": {"type": "integer", "minimum": 1, "maximum": 14},
    },
    "required": ["city"],
    "additionalProperties": False,
}

TINY_PNG = media.png(4, 4)
TINY_WAV = media.wav(40)
TINY_PDF = media.pdf(["Hello", "One page."])
TINY_MP4 = b"\x00\x00\x00\x18ftypisom\x00\x00\x02\x00isomiso2" + b"\x00\x00\x00\x08free"


def all_parts(prefix: str = "p"):
    """One content part of every type, each with an id and metadata."""
    return [
        TextPart(id=f"{prefix}-text", text="Describe these attachments.", metadata={"lang": "en"}),
        ImagePart(
            id=f"{prefix}-image",
            source=DataSource(value=b64(TINY_PNG), mime_type="image/png"),
            metadata={"detail": "high", "width": 4, "height": 4},
        ),
        AudioPart(
            id=f"{prefix}-audio",
            source=UrlSource(value="https://example.com/meeting.wav", mime_type="audio/wav"),
            metadata={"durationMs": 5},
        ),
        VideoPart(
            id=f"{prefix}-video",
            source=FileSource(value="file-vid-0042", provider="openai", mime_type="video/mp4"),
            metadata={"fps": 30},
        ),
        DocumentPart(
            id=f"{prefix}-document",
            source=DataSource(value=b64(TINY_PDF), mime_type="application/pdf"),
            metadata={"pages": 1},
        ),
    ]


def every_role(subagent: str = None):
    """One message of every role, fully populated."""
    sa = {} if subagent is None else {"subagent_run_id": subagent}
    return [
        DeveloperMessage(id="dev-1", content="Prefer concise answers.", name="policy",
                         encrypted_value="enc:dev", metadata={"source": "org-policy"}, **sa),
        SystemMessage(id="sys-1", content="You are a helpful assistant.", name="system",
                      encrypted_value="enc:sys", metadata={"version": 3}, **sa),
        UserMessage(id="user-1", content="What's the weather in Lyon?", name="ana",
                    encrypted_value="enc:user", metadata={"client": "web"}, **sa),
        AssistantMessage(
            id="asst-1", content="Let me check.", name="helper", encrypted_value="enc:asst",
            metadata={"model": "m-1"},
            tool_calls=[ToolCall(id="call-1", function=FunctionCall(name="get_weather", arguments='{"city":"Lyon"}'),
                                 encrypted_value="enc:call", metadata={"latencyMs": 12})],
            **sa,
        ),
        ToolMessage(id="tool-1", tool_call_id="call-1", content='{"tempC":21}', encrypted_value="enc:tool",
                    metadata={"cached": False}, **sa),
        ActivityMessage(id="act-1", activity_type="PLAN", content={"status": "running", "steps": [1, 2]},
                        metadata={"ui": "card"}, **sa),
        ReasoningMessage(id="rsn-1", content="The user wants weather.", encrypted_value="enc:rsn",
                         metadata={"effort": "low"}, **sa),
    ]


def rai(messages, **kw) -> RunAgentInput:
    kw.setdefault("thread_id", "thread-1")
    kw.setdefault("run_id", "run-1")
    return RunAgentInput(messages=messages, **kw)


def deep_value(levels: int):
    """`levels` nested containers (alternating object and array) around a string."""
    value = "bottom"
    for i in range(levels):
        value = {"d": value} if i % 2 == 0 else [value]
    return value


# --------------------------------------------------------------------------- accept: RunAgentInput


def accept_cases():
    """(name, description, model) for every Python-built RunAgentInput document."""
    c = []

    def add(name, desc, model):
        c.append((name, desc, model))

    add("minimal", "Only the required fields: threadId, runId and an empty messages list.",
        rai([]))
    add("role-developer", "A developer message with every optional field.", rai([every_role()[0]]))
    add("role-system", "A system message with every optional field.", rai([every_role()[1]]))
    add("role-user-string", "A user message whose content is a string, with name, encryptedValue, metadata.",
        rai([every_role()[2]]))
    add("role-user-parts", "A user message with one content part of every type (text, image, audio, video, document).",
        rai([UserMessage(id="user-parts", content=all_parts())]))
    add("role-user-parts-minimal", "A user message whose parts carry no id and no metadata.",
        rai([UserMessage(id="user-parts-min", content=[
            TextPart(text="hi"),
            ImagePart(source=UrlSource(value="https://example.com/a.png")),
            AudioPart(source=UrlSource(value="https://example.com/a.mp3")),
            VideoPart(source=FileSource(value="file-1")),
            DocumentPart(source=UrlSource(value="https://example.com/a.pdf")),
        ])]))
    add("role-user-empty-parts", "A user message whose content is an empty list of parts.",
        rai([UserMessage(id="user-empty", content=[])]))
    add("role-assistant-content", "An assistant message with content and no toolCalls.",
        rai([AssistantMessage(id="asst-c", content="Sunny, 21 °C.")]))
    add("role-assistant-toolcalls", "An assistant message with two toolCalls and no content.",
        rai([AssistantMessage(id="asst-t", tool_calls=[
            ToolCall(id="call-a", function=FunctionCall(name="get_weather", arguments='{"city":"Lyon","days":3}'),
                     metadata={"parallel": True}),
            ToolCall(id="call-b", function=FunctionCall(name="get_time", arguments='{"tz":"Europe/Paris"}'),
                     encrypted_value="enc:call-b"),
        ])]))
    add("role-assistant-content-and-toolcalls", "An assistant message with content and one tool call, every optional field set.",
        rai([every_role()[3]]))
    add("role-assistant-bare", "An assistant message with only id and role (no content, no toolCalls).",
        rai([AssistantMessage(id="asst-bare")]))
    add("role-assistant-empty-toolcalls", "An assistant message whose toolCalls list is empty.",
        rai([AssistantMessage(id="asst-empty", content="", tool_calls=[])]))
    add("role-tool-string", "A tool message with string content.",
        rai([ToolMessage(id="tool-s", tool_call_id="call-1", content='{"temperature":72}')]))
    add("role-tool-parts", "A tool message whose content is a list of parts (text and document).",
        rai([ToolMessage(id="tool-p", tool_call_id="call-2", content=[
            TextPart(text="Invoice attached."),
            DocumentPart(source=UrlSource(value="https://example.com/INV-2291.pdf", mime_type="application/pdf")),
            ImagePart(id="chart", source=DataSource(value=b64(TINY_PNG), mime_type="image/png")),
        ])]))
    add("role-tool-error", "A tool message carrying an error, encryptedValue and metadata.",
        rai([ToolMessage(id="tool-e", tool_call_id="call-3", content="", error="upstream timeout after 30s",
                         encrypted_value="enc:tool-e", metadata={"retryable": True})]))
    add("role-activity", "An activity message with nested object content and metadata.",
        rai([ActivityMessage(id="act-2", activity_type="SEARCH_RESULTS", content={
            "query": "hotels lyon", "results": [{"title": "Hôtel A", "stars": 4}, {"title": "B", "stars": None}],
            "done": True, "progress": 1.0}, metadata={"renderer": "list"})]))
    add("role-activity-empty-content", "An activity message whose content is an empty object.",
        rai([ActivityMessage(id="act-3", activity_type="PING", content={})]))
    add("role-reasoning", "A reasoning message with encryptedValue and metadata.",
        rai([every_role()[6]]))
    add("role-reasoning-encrypted-only", "A reasoning message with empty content and an opaque encryptedValue.",
        rai([ReasoningMessage(id="rsn-2", content="", encrypted_value="gAAAAABmZ2VuY3J5cHRlZC1yZWFzb25pbmc=")]))
    add("all-roles", "One message of every role in one conversation.", rai(every_role()))
    add("subagent-run-id-on-messages", "Every role carrying subagentRunId.", rai(every_role("sub-run-7")))

    add("sources-data", "Data sources (inline base64) on image, audio, video and document parts, with every padding length.",
        rai([UserMessage(id="u-data", content=[
            ImagePart(source=DataSource(value=b64(TINY_PNG), mime_type="image/png")),
            AudioPart(source=DataSource(value=b64(TINY_WAV), mime_type="audio/wav")),
            VideoPart(source=DataSource(value=b64(TINY_MP4), mime_type="video/mp4")),
            DocumentPart(source=DataSource(value=b64(TINY_PDF), mime_type="application/pdf")),
            DocumentPart(id="pad0", source=DataSource(value=b64(b"abc"), mime_type="text/plain")),
            DocumentPart(id="pad1", source=DataSource(value=b64(b"abcd1"), mime_type="text/plain")),
            DocumentPart(id="pad2", source=DataSource(value=b64(b"abcd"), mime_type="text/plain")),
            DocumentPart(id="empty", source=DataSource(value="", mime_type="application/octet-stream")),
        ])]))
    add("sources-url", "URL sources: https with and without mimeType, and data: URLs.",
        rai([UserMessage(id="u-url", content=[
            ImagePart(source=UrlSource(value="https://example.com/screen.png", mime_type="image/png")),
            ImagePart(source=UrlSource(value="https://cdn.example.com/i/42?sig=a%2Fb&w=64")),
            ImagePart(source=UrlSource(value="data:image/png;base64," + b64(TINY_PNG), mime_type="image/png")),
            DocumentPart(source=UrlSource(value="data:text/plain;charset=utf-8,hello%20world")),
            AudioPart(source=UrlSource(value="https://example.com/meeting.wav", mime_type="audio/wav")),
            VideoPart(source=UrlSource(value="https://example.com/clip.mp4", mime_type="video/mp4")),
        ])]))
    add("sources-file", "File sources: with provider and mimeType, with provider only, with neither.",
        rai([UserMessage(id="u-file", content=[
            DocumentPart(source=FileSource(value="file-abc123", provider="openai", mime_type="application/pdf")),
            ImagePart(source=FileSource(value="files/xyz", provider="gemini")),
            AudioPart(source=FileSource(value="s3://bucket/a.ogg", mime_type="audio/ogg")),
            VideoPart(source=FileSource(value="")),
        ])]))
    add("part-metadata-kinds", "Content-part metadata of every JSON kind (it is `any` on parts, unlike message metadata).",
        rai([UserMessage(id="u-meta", content=[
            TextPart(text="object", metadata={"a": {"b": [1, None]}}),
            TextPart(text="array", metadata=[1, "two", None]),
            TextPart(text="string", metadata="just a string"),
            TextPart(text="number", metadata=42.5),
            TextPart(text="false", metadata=False),
            TextPart(text="empty", metadata={}),
        ])]))
    add("toolcall-arguments", "Tool-call arguments as JSON-encoded strings: empty object, nested, escaped, unicode, empty string.",
        rai([AssistantMessage(id="asst-args", tool_calls=[
            ToolCall(id="a0", function=FunctionCall(name="noop", arguments="{}")),
            ToolCall(id="a1", function=FunctionCall(name="search", arguments=json.dumps(
                {"q": "say \"hi\"\n", "filters": {"tags": ["a", "b"], "max": 10, "exact": None}}))),
            ToolCall(id="a2", function=FunctionCall(name="translate", arguments=json.dumps(
                {"text": "日本語 🚀", "path": "C:\\tmp\\x"}, ensure_ascii=False))),
            ToolCall(id="a3", function=FunctionCall(name="ascii", arguments=json.dumps({"text": "é🚀"}))),
            ToolCall(id="a4", function=FunctionCall(name="partial", arguments="")),
            ToolCall(id="a5", function=FunctionCall(name="array_args", arguments="[1,2,3]"),
                     metadata={"note": "arguments need not be an object"}, encrypted_value="enc:a5"),
        ])]))
    add("tools", "Tools with JSON Schema parameters and metadata; one without parameters; one with a boolean schema.",
        rai([], tools=[
            Tool(name="get_weather", description="Get the weather for a city", parameters=WEATHER_PARAMS,
                 metadata={"ui": "compact", "ag-ui": {"reserved": True}}),
            Tool(name="get_time", description="Current time"),
            Tool(name="anything", description="", parameters=True),
            Tool(name="nested_schema", description="Nested $ref schema", parameters={
                "$schema": "https://json-schema.org/draft/2020-12/schema",
                "$defs": {"addr": {"type": "object", "properties": {"zip": {"type": "string", "pattern": "^[0-9]{5}$"}}}},
                "type": "object", "properties": {"home": {"$ref": "#/$defs/addr"},
                                                  "tags": {"type": "array", "items": {"type": "string"}, "minItems": 0}},
            }),
        ]))
    add("context", "Context entries, including empty strings and JSON text in a value.",
        rai([], context=[
            Context(description="Current customer tier", value="enterprise"),
            Context(description="User profile", value='{"name":"Ana","locale":"fr-FR"}'),
            Context(description="", value=""),
        ]))
    add("resume", "Resume entries: resolved with payload and metadata, cancelled, payloads of several kinds.",
        rai([], resume=[
            ResumeEntry(interrupt_id="int-1", status="resolved", payload={"approved": True, "edits": {"amount": 40}},
                        metadata={"signature": "sig-abc", "ag-ui": {"k": 1}}),
            ResumeEntry(interrupt_id="int-2", status="cancelled"),
            ResumeEntry(interrupt_id="int-3", status="resolved", payload="yes"),
            ResumeEntry(interrupt_id="int-4", status="resolved", payload=[1, 2, 3]),
            ResumeEntry(interrupt_id="int-5", status="resolved", payload=0),
            ResumeEntry(interrupt_id="int-6", status="resolved", payload=False),
            ResumeEntry(interrupt_id="int-7", status="cancelled", metadata={"reason": "user closed the dialog"}),
        ]))
    add("protocol-version-parent-run", "protocolVersion and parentRunId at the top level.",
        rai([UserMessage(id="u", content="again")], protocol_version="1.0", parent_run_id="run-0"))
    for kind, value in [
        ("object", {"draft": "hello", "count": 2, "nested": {"list": [1, "a", None, True]}}),
        ("array", [1, "two", {"three": 3}, [4], None]),
        ("string", "just a string"),
        ("empty-string", ""),
        ("number", 3.25),
        ("integer", 42),
        ("zero", 0),
        ("true", True),
        ("false", False),
        ("empty-object", {}),
        ("empty-array", []),
        ("nulls-inside", {"a": None, "b": [None, None], "c": {"d": None}}),
    ]:
        add(f"state-{kind}", f"state holding a JSON {kind} value.", rai([], state=value))
    for kind, value in [
        ("object", {"clientVersion": "2.4.1", "flags": {"beta": True}, "trace": None}),
        ("array", ["a", 1, None]),
        ("string", "opaque"),
        ("number", -17),
        ("true", True),
        ("false", False),
        ("empty-object", {}),
    ]:
        add(f"forwarded-props-{kind}", f"forwardedProps holding a JSON {kind} value.",
            rai([], forwarded_props=value))
    add("extra-fields", "Unknown fields of every JSON kind at the top level, on messages, tool calls, functions, parts, sources, tools, context and resume entries.",
        rai(
            [
                UserMessage(id="u-x", content=[
                    TextPart(text="t", **{"x-part": {"k": 1}}),
                    ImagePart(source=UrlSource(value="https://example.com/x.png", **{"x-source": [1, 2]}), **{"x-part": None}),
                ], **{"clientNonce": "n-1", "x-null": None, "x-num": 1.5, "x-bool": True, "x-arr": [], "x-obj": {}}),
                AssistantMessage(id="a-x", tool_calls=[ToolCall(
                    id="c-x", function=FunctionCall(name="f", arguments="{}", **{"x-fn": "fn"}), **{"x-call": 7})],
                    **{"x-model": "m"}),
            ],
            tools=[Tool(name="t", description="d", **{"x-tool": {"deprecated": True}})],
            context=[Context(description="d", value="v", **{"x-ctx": False})],
            resume=[ResumeEntry(interrupt_id="i", status="resolved", **{"x-resume": "r"})],
            **{"x-trace-id": "trace-123", "x-null": None, "x-list": [1, {"a": "b"}], "x-nested": {"deep": {"er": True}},
               "x.weird key": "needs bracket quoting", "clé": "non-ASCII key"},
        ))
    add("edge-empty-strings", "Empty strings in every string field that allows one.",
        rai([
            DeveloperMessage(id="", content="", name=""),
            UserMessage(id="", content=""),
            UserMessage(id="", content=[TextPart(id="", text="")]),
            AssistantMessage(id="", content="", tool_calls=[ToolCall(id="", function=FunctionCall(name="", arguments=""))]),
            ToolMessage(id="", tool_call_id="", content="", error=""),
            ActivityMessage(id="", activity_type="", content={"": ""}),
            ReasoningMessage(id="", content="", encrypted_value=""),
        ], thread_id="", run_id="", parent_run_id="", protocol_version="",
            tools=[Tool(name="", description="")], context=[Context(description="", value="")],
            resume=[ResumeEntry(interrupt_id="", status="resolved", payload="")], state="", forwarded_props=""))
    unicode_text = ("héllo wörld · 日本語テキスト · مرحبا بالعالم · עברית · Ελληνικά · हिन्दी · 한국어 "
                    "· emoji 😀🚀👩‍💻 · family 👨‍👩‍👧‍👦 · flag 🇯🇵 · skin 👍🏽 · keycap 1️⃣ "
                    "· combining e\u0301 a\u0308\u0323 n\u0303 · zero-width [\u200b][\u200d] · bom [\ufeff] "
                    "· line sep [\u2028] para sep [\u2029] · max [\U0010ffff] · bmp-last [\uffff] · math 𝔸𝕓𝒸")
    add("edge-unicode", "Non-ASCII text everywhere: many scripts, emoji incl. ZWJ sequences and flags, combining marks, U+2028/2029, U+FEFF, U+10FFFF.",
        rai([
            UserMessage(id="ユーザー-1", content=unicode_text, name="Zoë"),
            AssistantMessage(id="asst-😀", content=unicode_text[::-1][:40] + "e\u0301",
                             tool_calls=[ToolCall(id="call-é", function=FunctionCall(
                                 name="überprüfen", arguments=json.dumps({"q": "naïve café 🚀"}, ensure_ascii=False)))]),
            ReasoningMessage(id="rsn-ü", content="思考中…"),
        ], thread_id="スレッド-🧵", run_id="run-ñ", state={"ключ": "значение", "emoji": "🎉", "combining": "o\u0308"},
            context=[Context(description="Langue", value="français")]))
    controls = "".join(chr(i) for i in range(0x20)) + "\x7f"
    add("edge-escapes", "Every character the SDK serialiser must escape: quote, backslash, all C0 controls (written as short escapes or \\u00XX), plus DEL and slash (not escaped).",
        rai([
            UserMessage(id="esc-1", content='quote " backslash \\ slash / tab \t newline \n cr \r bs \b ff \f'),
            UserMessage(id="esc-2", content=controls),
            AssistantMessage(id="esc-3", tool_calls=[ToolCall(id="c", function=FunctionCall(
                name="f", arguments=json.dumps({"s": 'a"b\\c\n\u0000'})))]),
        ], state={'k"ey': 'v\\al', "ctl\n": "\t"}))
    numbers = {
        "zero": 0, "negInt": -1, "int": 123456, "float": 1.5, "negZeroFloat": -0.0, "tenth": 0.1,
        "sum": 0.30000000000000004, "exp21": 1e21, "small": 1.5e-7, "tiny": 5e-324, "maxDouble": 1.7976931348623157e308,
        "minDouble": -1.7976931348623157e308, "maxSafe": 2 ** 53 - 1, "maxSafePlus2": 2 ** 53 + 1, "i64max": 2 ** 63 - 1,
        "i64min": -(2 ** 63), "u64max": 2 ** 64 - 1, "u64maxPlus1": 2 ** 64, "huge": 10 ** 30, "negHuge": -(10 ** 30),
        "list": [1, -1, 1.0, 2.5e10, 1e-10],
    }
    add("edge-numbers", "Numbers in state: ints past 2^53, 2^63 and 2^64, -0.0, exponents, the extreme doubles (as the Python serialiser writes them).",
        rai([], state=numbers, forwarded_props={"big": 2 ** 70, "neg": -2.5e-300}))
    add("edge-deep-200", "state nested 199 levels deep, so the whole document nests exactly 200 levels (pydantic's JSON parser limit).",
        rai([], state=deep_value(199)))
    add("edge-long-strings", "Long strings: a 64 KiB text and a 48 KiB base64 payload.",
        rai([UserMessage(id="long", content=[
            TextPart(text=("lorem ipsum dolor sit amet " * 2428)[:65536]),
            DocumentPart(source=DataSource(value=b64(bytes(range(256)) * 144), mime_type="application/octet-stream")),
        ])]))
    add("edge-many-messages", "500 small messages alternating user and assistant.",
        rai([UserMessage(id=f"m{i}", content=f"turn {i}") if i % 2 == 0 else AssistantMessage(id=f"m{i}", content=f"reply {i}")
             for i in range(500)]))

    # The .NET SDK docs (seeds) examples, written in wire form through the Python models.
    add("seed-run-agent-input", "Seed (.NET docs): the RunAgentInput example with a user message and the get_weather tool.",
        RunAgentInput(thread_id="thread-1", run_id="run-1", messages=[UserMessage(id="msg-1", content="Hello!")],
                      tools=[Tool(name="get_weather", description="Get the weather for a city", parameters={
                          "type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]})]))
    add("seed-developer", "Seed: AGUIDeveloperMessage example.",
        rai([DeveloperMessage(id="dev-1", content="Prefer concise answers.", name="policy")]))
    add("seed-system", "Seed: AGUISystemMessage example.",
        rai([SystemMessage(id="sys-1", content="You are a helpful assistant.", name="system")]))
    add("seed-assistant", "Seed: AGUIAssistantMessage example (tool call type left to its default).",
        rai([AssistantMessage(id="asst-1", content="I can help with that.", tool_calls=[
            ToolCall(id="call-1", function=FunctionCall(name="get_weather", arguments='{"city":"Seattle"}'))])]))
    add("seed-user", "Seed: AGUIUserMessage examples (text only and multimodal).",
        rai([UserMessage(id="user-1", content="Summarize this image."),
             UserMessage(id="user-2", content=[
                 TextPart(text="What is shown here?"),
                 ImagePart(source=UrlSource(value="https://example.com/screen.png", mime_type="image/png"))])]))
    add("seed-tool", "Seed: AGUIToolMessage examples (string content and content parts).",
        rai([ToolMessage(id="tool-msg-1", tool_call_id="call-1", content='{"temperature":72}'),
             ToolMessage(id="tool-msg-2", tool_call_id="call-2", content=[
                 TextPart(text="Invoice attached."),
                 DocumentPart(source=UrlSource(value="https://example.com/INV-2291.pdf", mime_type="application/pdf"))])]))
    add("seed-activity", "Seed: AGUIActivityMessage example.",
        rai([ActivityMessage(id="activity-1", activity_type="PLAN", content={"status": "running"})]))
    add("seed-reasoning", "Seed: AGUIReasoningMessage example.",
        rai([ReasoningMessage(id="reasoning-1", content="Thinking through the problem...")]))
    add("seed-tool-call", "Seed: AGUIToolCall example with Type = \"function\" set explicitly.",
        rai([AssistantMessage(id="asst-1", tool_calls=[ToolCall(id="call-1", type="function", function=FunctionCall(
            name="get_weather", arguments='{"city":"Seattle"}'))])]))
    add("seed-context-tool-state", "Seed: the AGUIContext, AGUITool (with metadata) and state examples.",
        rai([], context=[Context(description="Current customer tier", value="enterprise")],
            tools=[Tool(name="get_weather", description="Get the weather for a city", parameters={
                "type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
                metadata={"ui": "compact"})], state={"draft": "hello"}))
    add("seed-multimodal", "Seed (Multimodal Inputs): summarize PDF and screenshot; visual QA with image metadata; audio transcription; mixed media with a data source.",
        rai([
            UserMessage(id="user-1", content=[
                TextPart(text="Summarize this PDF and screenshot"),
                ImagePart(source=UrlSource(value="https://example.com/screen.png", mime_type="image/png")),
                DocumentPart(source=UrlSource(value="https://example.com/report.pdf", mime_type="application/pdf"))]),
            UserMessage(id="user-2", content=[
                TextPart(text="Describe this image."),
                ImagePart(source=UrlSource(value="https://example.com/image.png", mime_type="image/png"))]),
            UserMessage(id="q1", content=[
                TextPart(text="What issue do you see in this UI?"),
                ImagePart(source=UrlSource(value="https://example.com/ui.png", mime_type="image/png"),
                          metadata={"detail": "high"})]),
            UserMessage(id="q2", content=[
                TextPart(text="Transcribe this recording."),
                AudioPart(source=UrlSource(value="https://example.com/meeting.wav", mime_type="audio/wav"))]),
            UserMessage(id="q3", content=[
                TextPart(text="Compare the screenshot with the spec."),
                ImagePart(source=DataSource(value="iVBORw0KGgo...", mime_type="image/png")),
                DocumentPart(source=UrlSource(value="https://example.com/spec.pdf", mime_type="application/pdf"))]),
        ]))
    add("seed-resume", "Seed: AGUIResume entries (resolved with payload and metadata, cancelled).",
        rai([], resume=[ResumeEntry(interrupt_id="int-1", status="resolved", payload={"approved": True},
                                    metadata={"signature": "abc"}),
                        ResumeEntry(interrupt_id="int-2", status="cancelled")]))
    add("sample-conversation", "samples/conversation.json (a realistic multi-turn run with an inline PNG and PDF) as the SDK writes it.",
        conversation())
    return c


def escaped_variants():
    """Documents serialised by the SDK, then re-escaped: the same values in other escape forms."""
    out = []
    base = rai([UserMessage(id="user-é", content="café 😀 e\u0301 \u2028 日本 \U0010ffff", name="Zoë"),
                AssistantMessage(id="asst-🚀", content="ok 👍🏽", tool_calls=[ToolCall(
                    id="c-ü", function=FunctionCall(name="f", arguments=json.dumps({"q": "ñ 🚀"}, ensure_ascii=False)))])],
               thread_id="thread-ß", state={"emoji": "🎉", "clé": "valeur"})
    out.append(("edge-escapes-ascii",
                "The SDK's model dumped and written with json.dumps(ensure_ascii=True): every non-ASCII character as a \\u escape, astral ones as surrogate pairs.",
                json.dumps(sdk_plain(base), ensure_ascii=True, separators=(",", ":"))))
    every = '"' + "".join([
        "quote \\\" backslash \\\\ solidus \\/ ",
        "bs \\b ff \\f nl \\n cr \\r tab \\t ",
        "lower \\u00e9 upper \\u00E9 \\u20ac \\u20AC ",
        "pair \\ud83d\\ude00 PAIR \\uD83D\\uDE00 mixed \\uD83d\\uDe00 ",
        "nul \\u0000 us \\u001f del \\u007f ",
        "ascii-as-escape \\u0041\\u0062 ",
        "max \\udbff\\udfff bom \\ufeff",
    ]) + '"'
    doc = rai([UserMessage(id="@@ID@@", content="@@EVERY@@")], thread_id="thread-esc",
              state={"@@KEY@@": "@@EVERY@@", "plain": "x"})
    text = sdk_json(doc)
    text = text.replace('"@@EVERY@@"', every).replace('"@@ID@@"', '"id\\/\\u0031"')
    text = text.replace('"@@KEY@@"', '"k\\u00e9y\\n"')
    out.append(("edge-escapes-every",
                "Every JSON escape form (\\\" \\\\ \\/ \\b \\f \\n \\r \\t, \\u with lower, upper and mixed-case hex, surrogate pairs, \\u0000) in a message, a message id and a state key. SDK-serialised, then the marked strings replaced by hand-written escapes.",
                text))
    raw_numbers = {
        "@@N1@@": "-0", "@@N2@@": "1E3", "@@N3@@": "1e-3", "@@N4@@": "-1.5E+10", "@@N5@@": "0e0", "@@N6@@": "1.0",
        "@@N7@@": "100000000000000000000000000000000000000000000000000", "@@N8@@": "0.1e1", "@@N9@@": "-0.0e-0",
        "@@N10@@": "123456789.123456789e-5", "@@N11@@": "1e+2", "@@N12@@": "9007199254740993",
    }
    doc = rai([], thread_id="thread-num", state={f"n{i}": f"@@N{i}@@" for i in range(1, 13)},
              forwarded_props=["@@N1@@", "@@N7@@"])
    text = sdk_json(doc)
    for mark, raw in raw_numbers.items():
        text = text.replace(f'"{mark}"', raw)
    out.append(("edge-number-forms",
                "Number spellings neither serialiser writes: -0, 1E3, 1e-3, -1.5E+10, 0e0, 1.0, a 51-digit integer, 0.1e1, -0.0e-0, 1e+2, 2^53+1. SDK-serialised with placeholders, then replaced by the raw number text.",
                text))
    pretty = json.dumps(sdk_plain(rai(every_role(), state={"a": [1, 2, {"b": None}]}, tools=[
        Tool(name="t", description="d", parameters=WEATHER_PARAMS)])), ensure_ascii=False, indent=4)
    out.append(("edge-whitespace-pretty",
                "The SDK's model dumped with json.dumps(indent=4): insignificant whitespace between every token.",
                pretty))
    ws = sdk_json(rai([UserMessage(id="u", content="x")], state={"k": [1, 2]}))
    ws = " \t\r\n" + ws.replace(",", " ,\r\n\t").replace(":", "\t: ").replace("[", "[ ").replace("{", "{\n") + "\n\t "
    out.append(("edge-whitespace-all-kinds",
                "All four JSON whitespace characters (space, tab, CR, LF) around every structural character and around the document. Hand-spaced from the SDK's output.",
                ws))
    return out


# --------------------------------------------------------------------------- accept: AgentCapabilities


def full_capabilities() -> AgentCapabilities:
    return AgentCapabilities(
        identity=IdentityCapabilities(name="Travel Agent", type="langgraph", description="Books trips and files expenses.",
                                      version="2.3.0", provider="Example Corp", documentation_url="https://docs.example.com/agent",
                                      metadata={"region": "eu-west-1", "ag-ui": {"tier": "gold"}}),
        transport=TransportCapabilities(streaming=True, websocket=False, http_binary=True, push_notifications=False,
                                        resumable=True),
        tools=ToolsCapabilities(supported=True, items=[
            Tool(name="search_flights", description="Search flights", parameters={
                "type": "object", "properties": {"from": {"type": "string"}, "to": {"type": "string"}},
                "required": ["from", "to"]}, metadata={"cost": "low"}),
            Tool(name="book", description="Book an offer")], parallel_calls=True, client_provided=True),
        output=OutputCapabilities(structured_output=True, supported_mime_types=["text/plain", "application/json", "image/png"]),
        state=StateCapabilities(snapshots=True, deltas=True, memory=False, persistent_state=True),
        multi_agent=MultiAgentCapabilities(supported=True, delegation=True, handoffs=False, subagents=[
            SubagentInfo(name="flight-finder", description="Finds flights"), SubagentInfo(name="expense-filer")]),
        reasoning=ReasoningCapabilities(supported=True, streaming=True, encrypted=False),
        multimodal=MultimodalCapabilities(
            input=MultimodalInputCapabilities(image=True, audio=True, video=False, pdf=True, file=True),
            output=MultimodalOutputCapabilities(image=False, audio=True)),
        execution=ExecutionCapabilities(code_execution=True, sandboxed=True, max_iterations=25, max_execution_time=120000),
        human_in_the_loop=HumanInTheLoopCapabilities(supported=True, approvals=True, interventions=False, feedback=True,
                                                     interrupts=True, approve_with_edits=True),
        custom={"rateLimit": {"rpm": 60}, "beta": ["x"], "nothing": None},
    )


def capabilities_cases():
    return [
        ("capabilities-full", "AgentCapabilities with all eleven groups and every field in each.", full_capabilities()),
        ("capabilities-empty", "An empty AgentCapabilities object (every field is optional).", AgentCapabilities()),
        ("capabilities-empty-groups", "All eleven groups present as empty objects.", AgentCapabilities(
            identity=IdentityCapabilities(), transport=TransportCapabilities(), tools=ToolsCapabilities(items=[]),
            output=OutputCapabilities(supported_mime_types=[]), state=StateCapabilities(),
            multi_agent=MultiAgentCapabilities(subagents=[]), reasoning=ReasoningCapabilities(),
            multimodal=MultimodalCapabilities(input=MultimodalInputCapabilities(), output=MultimodalOutputCapabilities()),
            execution=ExecutionCapabilities(max_iterations=0, max_execution_time=0), human_in_the_loop=HumanInTheLoopCapabilities(),
            custom={})),
        ("capabilities-extras", "Unknown fields at the top level and inside groups (both SDKs keep them).", AgentCapabilities(
            identity=IdentityCapabilities(name="x", **{"logoUrl": "https://example.com/logo.svg"}),
            transport=TransportCapabilities(streaming=True, **{"http3": True}),
            **{"x-vendor": {"plan": "pro"}, "x-null": None})),
        ("capabilities-seed", "Seed (.NET docs): the AgentCapabilities example.", AgentCapabilities(
            identity=IdentityCapabilities(name="Support Agent", version="1.0.0"),
            transport=TransportCapabilities(streaming=True, resumable=True),
            tools=ToolsCapabilities(supported=True, client_provided=True),
            multimodal=MultimodalCapabilities(input=MultimodalInputCapabilities(image=True, audio=True, pdf=True)))),
    ]


# --------------------------------------------------------------------------- legacy binary parts (hand-written)


def legacy_cases():
    """(name, description, document, expected) with the expected values written by hand from the seeds.

    The 1.0 SDKs reject `binary` parts inside a RunAgentInput, so these cannot be
    built or checked by them as a whole. The part alone is checked against the
    deprecated ag_ui.core.BinaryInputContent model in `expect`.
    """
    cases = []
    seed_part = {"type": "binary", "mimeType": "application/octet-stream", "data": "AAECAwQ=", "filename": "payload.bin"}
    doc = {"threadId": "thread-1", "runId": "run-1",
           "messages": [{"id": "user-1", "role": "user", "content": [
               {"type": "text", "text": "Here is the payload."}, seed_part]}]}
    exp = {"threadId": "thread-1", "runId": "run-1",
           "messages[0].id": "user-1", "messages[0].role": "user",
           "messages[0].content[0].type": "text", "messages[0].content[0].text": "Here is the payload.",
           "messages[0].content[1].type": "binary", "messages[0].content[1].mimeType": "application/octet-stream",
           "messages[0].content[1].data": "AAECAwQ=", "messages[0].content[1].filename": "payload.bin"}
    cases.append(("legacy-binary-data", "Seed: AGUIBinaryInputContent with inline data and filename (pre-1.0 `binary` part).",
                  doc, exp))
    doc = {"threadId": "thread-1", "runId": "run-2",
           "messages": [{"id": "user-2", "role": "user", "content": [
               {"type": "binary", "mimeType": "image/png", "url": "https://example.com/screen.png"},
               {"type": "binary", "mimeType": "application/pdf", "id": "file-123", "filename": "report.pdf"}]}]}
    exp = {"threadId": "thread-1", "runId": "run-2",
           "messages[0].id": "user-2", "messages[0].role": "user",
           "messages[0].content[0].type": "binary", "messages[0].content[0].mimeType": "image/png",
           "messages[0].content[0].url": "https://example.com/screen.png",
           "messages[0].content[1].type": "binary", "messages[0].content[1].mimeType": "application/pdf",
           "messages[0].content[1].id": "file-123", "messages[0].content[1].filename": "report.pdf"}
    cases.append(("legacy-binary-url-and-id", "Pre-1.0 `binary` parts referencing a URL and a provider id.", doc, exp))
    doc = {"threadId": "t-legacy", "runId": "r-legacy",
           "messages": [{"id": "tool-1", "role": "tool", "toolCallId": "call-1", "content": "done"},
                        {"id": "user-3", "role": "user", "content": [
                            {"type": "binary", "mimeType": "text/plain", "id": "b-1",
                             "url": "https://example.com/a.txt", "data": "aGVsbG8=", "filename": "a.txt"}]}]}
    exp = {"threadId": "t-legacy", "runId": "r-legacy",
           "messages[0].id": "tool-1", "messages[0].role": "tool", "messages[0].content": "done",
           "messages[0].toolCallId": "call-1",
           "messages[1].id": "user-3", "messages[1].role": "user",
           "messages[1].content[0].type": "binary", "messages[1].content[0].mimeType": "text/plain",
           "messages[1].content[0].id": "b-1", "messages[1].content[0].url": "https://example.com/a.txt",
           "messages[1].content[0].data": "aGVsbG8=", "messages[1].content[0].filename": "a.txt"}
    cases.append(("legacy-binary-all-fields", "A pre-1.0 `binary` part with every field (mimeType, id, url, data, filename).",
                  doc, exp))
    return cases


# --------------------------------------------------------------------------- events


def base_fields(i: int, subagent: bool = True):
    kw = {"timestamp": TS0 + i, "raw_event": {"provider": "upstream", "seq": i}, "metadata": {"trace": f"tr-{i}"}}
    if subagent:
        kw["subagent_run_id"] = "sub-1"
    return kw


def sample_interrupts():
    return [
        Interrupt(id="int-1", reason="approval", message="Approve the 540 EUR hotel booking?", tool_call_id="call-book",
                  response_schema={"type": "object", "properties": {"approved": {"type": "boolean"}}, "required": ["approved"]},
                  expires_at="2025-01-01T01:00:00Z", metadata={"ui": "dialog"}, subagent_run_id="sub-1"),
        Interrupt(id="int-2", reason="input_required"),
    ]


def event_cases():
    """(name, description, event model) for every Python-built event document."""
    c = []
    n = [0]

    def add(name, desc, model):
        c.append((name, desc, model))

    def b(subagent=True):
        n[0] += 1
        return base_fields(n[0], subagent)

    usage = [TokenUsage(provider="openai", model="gpt-x", input_tokens=1200, output_tokens=300, total_tokens=1500,
                        reasoning_tokens=120, cached_input_tokens=800, cache_write_input_tokens=0),
             TokenUsage(model="small")]
    add("text-message-start-full", "TEXT_MESSAGE_START with role, name and every base field.",
        TextMessageStartEvent(message_id="msg-1", role="assistant", name="helper", **b()))
    add("text-message-start-minimal", "TEXT_MESSAGE_START with only messageId (role absent means assistant).",
        TextMessageStartEvent(message_id="msg-1"))
    for role in ["developer", "system", "user"]:
        add(f"text-message-start-role-{role}", f"TEXT_MESSAGE_START with role {role}.",
            TextMessageStartEvent(message_id=f"msg-{role}", role=role))
    add("text-message-content-full", "TEXT_MESSAGE_CONTENT with escapes and unicode in delta and every base field.",
        TextMessageContentEvent(message_id="msg-1", delta="Hello \"world\"\n😀 e\u0301", **b()))
    add("text-message-content-empty-delta", "TEXT_MESSAGE_CONTENT with an empty delta (allowed in 1.0).",
        TextMessageContentEvent(message_id="msg-1", delta=""))
    add("text-message-end-full", "TEXT_MESSAGE_END with every base field.", TextMessageEndEvent(message_id="msg-1", **b()))
    add("text-message-end-minimal", "TEXT_MESSAGE_END with only messageId.", TextMessageEndEvent(message_id="msg-1"))
    add("text-message-chunk-full", "TEXT_MESSAGE_CHUNK with messageId, role, delta, name and every base field.",
        TextMessageChunkEvent(message_id="msg-2", role="user", delta="chunk", name="ana", **b()))
    add("text-message-chunk-empty", "TEXT_MESSAGE_CHUNK with no field but type.", TextMessageChunkEvent())
    add("tool-call-start-full", "TOOL_CALL_START with parentMessageId and every base field.",
        ToolCallStartEvent(tool_call_id="call-1", tool_call_name="get_weather", parent_message_id="msg-1", **b()))
    add("tool-call-start-minimal", "TOOL_CALL_START with the required fields.",
        ToolCallStartEvent(tool_call_id="call-1", tool_call_name="get_weather"))
    add("tool-call-args-full", "TOOL_CALL_ARGS whose delta is a fragment of JSON text with escapes.",
        ToolCallArgsEvent(tool_call_id="call-1", delta='{"city":"Ly\\u00f6n \\"x\\"', **b()))
    add("tool-call-args-minimal", "TOOL_CALL_ARGS with an empty delta.", ToolCallArgsEvent(tool_call_id="call-1", delta=""))
    add("tool-call-end-full", "TOOL_CALL_END with every base field.", ToolCallEndEvent(tool_call_id="call-1", **b()))
    add("tool-call-end-minimal", "TOOL_CALL_END with only toolCallId.", ToolCallEndEvent(tool_call_id="call-1"))
    add("tool-call-chunk-full", "TOOL_CALL_CHUNK with every field.",
        ToolCallChunkEvent(tool_call_id="call-2", tool_call_name="search", parent_message_id="msg-1", delta='{"q":', **b()))
    add("tool-call-chunk-empty", "TOOL_CALL_CHUNK with no field but type.", ToolCallChunkEvent())
    add("tool-call-result-full", "TOOL_CALL_RESULT with string content, role tool and every base field.",
        ToolCallResultEvent(message_id="tool-msg-1", tool_call_id="call-1", content='{"tempC":21}', role="tool", **b()))
    add("tool-call-result-parts", "TOOL_CALL_RESULT whose content is a list of parts of every type.",
        ToolCallResultEvent(message_id="tool-msg-2", tool_call_id="call-2", content=all_parts("r")))
    add("tool-call-result-minimal", "TOOL_CALL_RESULT with the required fields.",
        ToolCallResultEvent(message_id="tool-msg-3", tool_call_id="call-3", content=""))
    add("state-snapshot-full", "STATE_SNAPSHOT with an object snapshot and every base field.",
        StateSnapshotEvent(snapshot={"cart": [{"sku": "A1", "qty": 2}], "total": 19.99, "coupon": None}, **b()))
    add("state-snapshot-null", "STATE_SNAPSHOT whose snapshot is null (required but may be null).",
        StateSnapshotEvent(snapshot=None))
    add("state-snapshot-array", "STATE_SNAPSHOT whose snapshot is an array.", StateSnapshotEvent(snapshot=[1, "a", None]))
    add("state-snapshot-scalar", "STATE_SNAPSHOT whose snapshot is a number.", StateSnapshotEvent(snapshot=-2.5))
    add("state-delta-full", "STATE_DELTA with all six JSON Patch ops, a null value, ~0/~1 pointer escapes, and every base field.",
        StateDeltaEvent(delta=[
            {"op": "add", "path": "/cart/-", "value": {"sku": "B2", "qty": 1}},
            {"op": "remove", "path": "/coupon"},
            {"op": "replace", "path": "/total", "value": 29.99},
            {"op": "move", "from": "/draft", "path": "/final"},
            {"op": "copy", "from": "/final", "path": "/backup"},
            {"op": "test", "path": "/a~1b/c~0d", "value": None},
            {"op": "add", "path": "", "value": {"whole": "document"}},
        ], **b()))
    add("state-delta-empty", "STATE_DELTA with an empty patch.", StateDeltaEvent(delta=[]))
    add("messages-snapshot-full", "MESSAGES_SNAPSHOT with one message of every role and every base field.",
        MessagesSnapshotEvent(messages=every_role("sub-2"), **b(subagent=False)))
    add("messages-snapshot-empty", "MESSAGES_SNAPSHOT with no messages.", MessagesSnapshotEvent(messages=[]))
    add("activity-snapshot-full", "ACTIVITY_SNAPSHOT with replace true and every base field.",
        ActivitySnapshotEvent(message_id="act-1", activity_type="PLAN", content={"steps": ["search", "book"], "current": 0},
                              replace=True, **b()))
    add("activity-snapshot-replace-false", "ACTIVITY_SNAPSHOT with replace false.",
        ActivitySnapshotEvent(message_id="act-1", activity_type="PLAN", content={"current": 1}, replace=False))
    add("activity-snapshot-minimal", "ACTIVITY_SNAPSHOT with the required fields and empty content.",
        ActivitySnapshotEvent(message_id="act-1", activity_type="PLAN", content={}))
    add("activity-delta-full", "ACTIVITY_DELTA with a patch and every base field.",
        ActivityDeltaEvent(message_id="act-1", activity_type="PLAN",
                           patch=[{"op": "replace", "path": "/current", "value": 2}, {"op": "remove", "path": "/steps/0"}], **b()))
    add("activity-delta-minimal", "ACTIVITY_DELTA with an empty patch.",
        ActivityDeltaEvent(message_id="act-1", activity_type="PLAN", patch=[]))
    add("raw-full", "RAW with an object event, source and every base field.",
        RawEvent(event={"object": "chat.completion.chunk", "choices": [{"delta": {"content": "Hi"}}]}, source="openai", **b()))
    add("raw-null-event", "RAW whose event is null (required but may be null).", RawEvent(event=None))
    add("raw-string-event", "RAW whose event is a string.", RawEvent(event="data: [DONE]", source="sse"))
    add("custom-full", "CUSTOM with an object value and every base field.",
        CustomEvent(name="progress", value={"percent": 42, "label": "Searching…"}, **b()))
    add("custom-null-value", "CUSTOM whose value is null (required but may be null).", CustomEvent(name="ping", value=None))
    add("custom-array-value", "CUSTOM whose value is an array.", CustomEvent(name="batch", value=[1, [2], {"3": 3}]))
    add("run-started-full", "RUN_STARTED with protocolVersion, parentRunId, a full input and every base field (no subagentRunId on this type).",
        RunStartedEvent(thread_id="thread-1", run_id="run-2", protocol_version="1.0", parent_run_id="run-1",
                        input=rai(every_role(), run_id="run-2", parent_run_id="run-1", protocol_version="1.0",
                                  tools=[Tool(name="get_weather", description="Weather", parameters=WEATHER_PARAMS)],
                                  context=[Context(description="tier", value="gold")], state={"step": 1},
                                  forwarded_props={"ui": "web"},
                                  resume=[ResumeEntry(interrupt_id="int-1", status="resolved", payload={"approved": True})]),
                        **b(subagent=False)))
    add("run-started-minimal", "RUN_STARTED with threadId and runId.", RunStartedEvent(thread_id="thread-1", run_id="run-1"))
    add("run-finished-success", "RUN_FINISHED with a success outcome (pendingToolCallIds), result, usage and every base field.",
        RunFinishedEvent(thread_id="thread-1", run_id="run-1", result={"answer": 42, "sources": ["a", "b"]},
                         outcome=RunFinishedSuccessOutcome(pending_tool_call_ids=["call-7", "call-8"]), usage=usage,
                         **b(subagent=False)))
    add("run-finished-success-bare", "RUN_FINISHED with a success outcome and nothing else.",
        RunFinishedEvent(thread_id="thread-1", run_id="run-1", outcome=RunFinishedSuccessOutcome()))
    add("run-finished-interrupt", "RUN_FINISHED with an interrupt outcome: one fully populated interrupt and one minimal.",
        RunFinishedEvent(thread_id="thread-1", run_id="run-1", outcome=RunFinishedInterruptOutcome(interrupts=sample_interrupts())))
    add("run-finished-cancelled", "RUN_FINISHED with a cancelled outcome.",
        RunFinishedEvent(thread_id="thread-1", run_id="run-1", outcome=RunFinishedCancelledOutcome()))
    add("run-finished-minimal", "RUN_FINISHED with threadId and runId.", RunFinishedEvent(thread_id="thread-1", run_id="run-1"))
    add("run-finished-result-kinds", "RUN_FINISHED with a string result and an empty usage list.",
        RunFinishedEvent(thread_id="thread-1", run_id="run-1", result="done", usage=[]))
    add("run-error-full", "RUN_ERROR with code, usage and every base field.",
        RunErrorEvent(message="Rate limit exceeded", code="rate_limited", usage=usage[:1], **b(subagent=False)))
    add("run-error-minimal", "RUN_ERROR with only message.", RunErrorEvent(message="boom"))
    add("step-started-full", "STEP_STARTED with every base field.", StepStartedEvent(step_name="plan", **b()))
    add("step-started-minimal", "STEP_STARTED with only stepName.", StepStartedEvent(step_name="plan"))
    add("step-finished-full", "STEP_FINISHED with every base field.", StepFinishedEvent(step_name="plan", **b()))
    add("step-finished-minimal", "STEP_FINISHED with only stepName.", StepFinishedEvent(step_name="plan"))
    add("reasoning-start-full", "REASONING_START with every base field.", ReasoningStartEvent(message_id="rsn-1", **b()))
    add("reasoning-start-minimal", "REASONING_START with only messageId.", ReasoningStartEvent(message_id="rsn-1"))
    add("reasoning-message-start-full", "REASONING_MESSAGE_START with role reasoning and every base field.",
        ReasoningMessageStartEvent(message_id="rsn-1", role="reasoning", **b()))
    add("reasoning-message-start-minimal", "REASONING_MESSAGE_START as the SDK writes it with the default role.",
        ReasoningMessageStartEvent(message_id="rsn-1"))
    add("reasoning-message-content-full", "REASONING_MESSAGE_CONTENT with every base field.",
        ReasoningMessageContentEvent(message_id="rsn-1", delta="Comparing options…", **b()))
    add("reasoning-message-content-minimal", "REASONING_MESSAGE_CONTENT with an empty delta.",
        ReasoningMessageContentEvent(message_id="rsn-1", delta=""))
    add("reasoning-message-end-full", "REASONING_MESSAGE_END with every base field.",
        ReasoningMessageEndEvent(message_id="rsn-1", **b()))
    add("reasoning-message-end-minimal", "REASONING_MESSAGE_END with only messageId.", ReasoningMessageEndEvent(message_id="rsn-1"))
    add("reasoning-message-chunk-full", "REASONING_MESSAGE_CHUNK with messageId, delta and every base field.",
        ReasoningMessageChunkEvent(message_id="rsn-2", delta="step 1", **b()))
    add("reasoning-message-chunk-empty", "REASONING_MESSAGE_CHUNK with no field but type.", ReasoningMessageChunkEvent())
    add("reasoning-end-full", "REASONING_END with every base field.", ReasoningEndEvent(message_id="rsn-1", **b()))
    add("reasoning-end-minimal", "REASONING_END with only messageId.", ReasoningEndEvent(message_id="rsn-1"))
    add("reasoning-encrypted-value-message", "REASONING_ENCRYPTED_VALUE for a message, with every base field.",
        ReasoningEncryptedValueEvent(subtype="message", entity_id="rsn-1", encrypted_value="gAAAAABn-opaque==", **b()))
    add("reasoning-encrypted-value-tool-call", "REASONING_ENCRYPTED_VALUE for a tool call.",
        ReasoningEncryptedValueEvent(subtype="tool-call", entity_id="call-1", encrypted_value="opaque"))
    add("subagent-started-full", "SUBAGENT_STARTED with every optional field.",
        SubagentStartedEvent(subagent_run_id="sub-1", name="flight-finder", description="Finds flights",
                             parent_subagent_run_id="sub-0", parent_tool_call_id="call-1", parent_message_id="msg-1",
                             **b(subagent=False)))
    add("subagent-started-minimal", "SUBAGENT_STARTED with subagentRunId and name.",
        SubagentStartedEvent(subagent_run_id="sub-1", name="flight-finder"))
    add("subagent-finished-success", "SUBAGENT_FINISHED with a success outcome, a result and every base field.",
        SubagentFinishedEvent(subagent_run_id="sub-1", result={"flights": 3}, outcome=SubagentFinishedSuccessOutcome(),
                              **b(subagent=False)))
    add("subagent-finished-suspended", "SUBAGENT_FINISHED with a suspended outcome listing interruptIds.",
        SubagentFinishedEvent(subagent_run_id="sub-1", outcome=SubagentFinishedSuspendedOutcome(interrupt_ids=["int-1", "int-2"])))
    add("subagent-finished-suspended-bare", "SUBAGENT_FINISHED with a suspended outcome and no interruptIds.",
        SubagentFinishedEvent(subagent_run_id="sub-1", outcome=SubagentFinishedSuspendedOutcome()))
    add("subagent-finished-minimal", "SUBAGENT_FINISHED with only subagentRunId.", SubagentFinishedEvent(subagent_run_id="sub-1"))
    add("subagent-error-full", "SUBAGENT_ERROR with code and every base field.",
        SubagentErrorEvent(subagent_run_id="sub-1", message="tool crashed", code="E_TOOL", **b(subagent=False)))
    add("subagent-error-minimal", "SUBAGENT_ERROR with the required fields.",
        SubagentErrorEvent(subagent_run_id="sub-1", message="failed"))
    add("timestamp-max", "timestamp at +(2^53-1).", TextMessageEndEvent(message_id="m", timestamp=2 ** 53 - 1))
    add("timestamp-min", "timestamp at -(2^53-1).", TextMessageEndEvent(message_id="m", timestamp=-(2 ** 53 - 1)))
    add("timestamp-zero", "timestamp 0.", TextMessageEndEvent(message_id="m", timestamp=0))
    add("raw-event-kinds", "rawEvent holding a string, and metadata with null and nested values.",
        StepStartedEvent(step_name="s", raw_event="raw text", metadata={"a": None, "ag-ui": {"b": [1]}}))
    add("extra-fields", "Unknown fields of every JSON kind on an event (both SDKs keep them).",
        CustomEvent(name="x", value=1, **{"x-str": "s", "x-null": None, "x-arr": [1], "x-obj": {"k": "v"}, "x-num": -0.5,
                                         "x-bool": False}))
    add("subagent-run-id-on-run-started-as-extra", "subagentRunId on RUN_STARTED, where it is no field: kept as an unknown extra field.",
        RunStartedEvent(thread_id="t", run_id="r", **{"subagentRunId": "sub-9"}))
    return c


# --------------------------------------------------------------------------- reject corpus


def _set(doc, path, value):
    target = doc
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value


def _del(doc, path):
    target = doc
    for key in path[:-1]:
        target = target[key]
    del target[path[-1]]


def path_str(path) -> str:
    out = ""
    for key in path:
        out = f"{out}[{key}]" if isinstance(key, int) else flat.join(out, key)
    return out


def reject_cases():
    """(name, kind, path, reason, text) for every reject document."""
    base = sdk_plain(rai(every_role(), tools=[Tool(name="get_weather", description="Weather", parameters=WEATHER_PARAMS,
                                                   metadata={"ui": "compact"})],
                         context=[Context(description="tier", value="gold")], state={"step": 1},
                         forwarded_props={"ui": "web"},
                         resume=[ResumeEntry(interrupt_id="int-1", status="resolved", payload={"ok": True},
                                             metadata={"sig": "s"})]))
    parts = sdk_plain(rai([UserMessage(id="u-parts", content=all_parts())]))
    tool_parts = sdk_plain(rai([ToolMessage(id="t", tool_call_id="c", content=[TextPart(text="x")])]))
    caps = sdk_plain(full_capabilities())
    ev = {name: sdk_plain(model) for name, _, model in event_cases()}
    cases = []
    # index of each role inside `base["messages"]`
    DEV, SYS, USER, ASST, TOOL, ACT, RSN = range(7)

    def mutate(name, reason, source, path, value=None, delete=False, kind="RunAgentInput"):
        doc = json.loads(json.dumps(source))
        if delete:
            _del(doc, path)
        else:
            _set(doc, path, value)
        cases.append((name, kind, path_str(path), reason, compact(doc)))

    def raw(name, reason, kind, path, text):
        cases.append((name, kind, path, reason, text))

    m = "messages"
    # missing required fields
    mutate("missing-thread-id", "threadId is required", base, ["threadId"], delete=True)
    mutate("missing-run-id", "runId is required", base, ["runId"], delete=True)
    mutate("missing-messages", "messages is required (not defaulted)", base, ["messages"], delete=True)
    mutate("message-missing-id", "every message needs an id", base, [m, USER, "id"], delete=True)
    mutate("message-missing-role", "role is the message discriminator", base, [m, USER, "role"], delete=True)
    mutate("developer-missing-content", "developer content is required", base, [m, DEV, "content"], delete=True)
    mutate("system-missing-content", "system content is required", base, [m, SYS, "content"], delete=True)
    mutate("user-missing-content", "user content is required", base, [m, USER, "content"], delete=True)
    mutate("tool-missing-content", "tool content is required", base, [m, TOOL, "content"], delete=True)
    mutate("tool-missing-tool-call-id", "tool messages need toolCallId", base, [m, TOOL, "toolCallId"], delete=True)
    mutate("reasoning-missing-content", "reasoning content is required", base, [m, RSN, "content"], delete=True)
    mutate("activity-missing-activity-type", "activity messages need activityType", base, [m, ACT, "activityType"], delete=True)
    mutate("activity-missing-content", "activity messages need content", base, [m, ACT, "content"], delete=True)
    mutate("part-missing-source", "media parts need a source", parts, [m, 0, "content", 1, "source"], delete=True)
    mutate("text-part-missing-text", "text parts need text", parts, [m, 0, "content", 0, "text"], delete=True)
    mutate("data-source-missing-mime-type", "a data source requires mimeType", parts, [m, 0, "content", 1, "source", "mimeType"], delete=True)
    mutate("source-missing-value", "every source needs a value", parts, [m, 0, "content", 2, "source", "value"], delete=True)
    mutate("tool-call-missing-id", "tool calls need an id", base, [m, ASST, "toolCalls", 0, "id"], delete=True)
    mutate("tool-call-missing-function", "tool calls need a function", base, [m, ASST, "toolCalls", 0, "function"], delete=True)
    mutate("function-missing-name", "function.name is required", base, [m, ASST, "toolCalls", 0, "function", "name"], delete=True)
    mutate("function-missing-arguments", "function.arguments is required", base, [m, ASST, "toolCalls", 0, "function", "arguments"], delete=True)
    mutate("tool-call-missing-type", "ToolCall.type is required by TS; Python fills in the default \"function\"", base,
           [m, ASST, "toolCalls", 0, "type"], delete=True)
    mutate("tool-missing-description", "Tool.description is a required string in 1.0", base, ["tools", 0, "description"], delete=True)
    mutate("tool-missing-name", "Tool.name is required", base, ["tools", 0, "name"], delete=True)
    mutate("context-missing-value", "Context.value is required", base, ["context", 0, "value"], delete=True)
    mutate("context-missing-description", "Context.description is required", base, ["context", 0, "description"], delete=True)
    mutate("resume-missing-interrupt-id", "ResumeEntry.interruptId is required", base, ["resume", 0, "interruptId"], delete=True)
    mutate("resume-missing-status", "ResumeEntry.status is required", base, ["resume", 0, "status"], delete=True)
    # wrong discriminators and enum values
    mutate("role-bot", "unknown role", base, [m, USER, "role"], "bot")
    mutate("role-uppercase", "roles are lowercase", base, [m, USER, "role"], "User")
    mutate("part-type-pdf", "unknown content part type", parts, [m, 0, "content", 4, "type"], "pdf")
    mutate("source-type-blob", "unknown source type", parts, [m, 0, "content", 1, "source", "type"], "blob")
    mutate("part-binary-in-1-0", "the pre-1.0 binary part is not a 1.0 content part", parts, [m, 0, "content", 1],
           {"type": "binary", "mimeType": "image/png", "data": "AAECAwQ="})
    mutate("tool-call-type-not-function", "ToolCall.type must be \"function\"", base, [m, ASST, "toolCalls", 0, "type"], "code")
    mutate("resume-status-approved", "status is resolved or cancelled", base, ["resume", 0, "status"], "approved")
    mutate("resume-status-null", "status may not be null", base, ["resume", 0, "status"], None)
    # null where the field is optional but null is not allowed (TS) or allowed (Python)
    mutate("message-metadata-null", "metadata is absent or an object, never null", base, [m, USER, "metadata"], None)
    mutate("forwarded-props-null", "forwardedProps may not be null in TS", base, ["forwardedProps"], None)
    mutate("parent-run-id-null", "parentRunId may not be null in TS", base, ["parentRunId"], None)
    mutate("protocol-version-null", "protocolVersion may not be null in TS", base, ["protocolVersion"], None)
    mutate("assistant-content-null", "assistant content may be absent but not null in TS", base, [m, ASST, "content"], None)
    mutate("assistant-tool-calls-null", "toolCalls may not be null in TS", base, [m, ASST, "toolCalls"], None)
    mutate("tools-null", "tools may not be null in TS", base, ["tools"], None)
    mutate("context-null", "context may not be null in TS", base, ["context"], None)
    mutate("resume-null", "resume may not be null in TS", base, ["resume"], None)
    mutate("tool-parameters-null", "Tool.parameters may not be null in TS", base, ["tools", 0, "parameters"], None)
    mutate("tool-metadata-null", "Tool.metadata may not be null in TS", base, ["tools", 0, "metadata"], None)
    mutate("resume-payload-null", "ResumeEntry.payload may not be null in TS", base, ["resume", 0, "payload"], None)
    mutate("part-metadata-null", "part metadata is any non-null in TS", parts, [m, 0, "content", 1, "metadata"], None)
    mutate("part-id-null", "part id may not be null in TS", parts, [m, 0, "content", 1, "id"], None)
    mutate("tool-call-metadata-null", "ToolCall.metadata may not be null in TS", base, [m, ASST, "toolCalls", 0, "metadata"], None)
    mutate("message-name-null", "name may not be null in TS", base, [m, USER, "name"], None)
    mutate("tool-error-null", "tool error may not be null in TS", base, [m, TOOL, "error"], None)
    mutate("url-source-mime-type-null", "UrlSource.mimeType may not be null in TS", parts, [m, 0, "content", 2, "source", "mimeType"], None)
    mutate("subagent-run-id-null", "subagentRunId may not be null in TS", base, [m, USER, "subagentRunId"], None)
    mutate("thread-id-null", "threadId is required and may not be null", base, ["threadId"], None)
    mutate("messages-null", "messages may not be null", base, ["messages"], None)
    mutate("message-null", "a message may not be null", base, [m, USER], None)
    mutate("user-content-null", "user content is required and may not be null", base, [m, USER, "content"], None)
    mutate("state-null", "state: null is accepted by both (TS turns it into absent)", base, ["state"], None)
    # wrong types
    mutate("thread-id-number", "threadId must be a string (no coercion)", base, ["threadId"], 42)
    mutate("message-id-number", "message id must be a string", base, [m, USER, "id"], 7)
    mutate("user-content-object", "content must be a string or a list of parts, not an object", base, [m, USER, "content"],
           {"type": "text", "text": "hi"})
    mutate("user-content-number", "content must be a string or a list", base, [m, USER, "content"], 5)
    mutate("developer-content-parts", "developer content is a string only", base, [m, DEV, "content"], [{"type": "text", "text": "x"}])
    mutate("metadata-array", "metadata must be an object", base, [m, USER, "metadata"], [1, 2])
    mutate("metadata-string", "metadata must be an object", base, [m, USER, "metadata"], "meta")
    mutate("activity-content-array", "activity content must be a non-array object", base, [m, ACT, "content"], [1])
    mutate("activity-content-string", "activity content must be an object", base, [m, ACT, "content"], "running")
    mutate("messages-object", "messages must be an array", base, ["messages"], {"0": base[m][0]})
    mutate("tool-call-arguments-object", "arguments is a JSON-encoded string, not an object", base,
           [m, ASST, "toolCalls", 0, "function", "arguments"], {"city": "Lyon"})
    mutate("tool-call-type-null", "ToolCall.type may not be null", base, [m, ASST, "toolCalls", 0, "type"], None)
    mutate("tool-content-object", "tool content must be a string or a list", tool_parts, [m, 0, "content"], {"text": "x"})
    mutate("encrypted-value-number", "encryptedValue must be a string", base, [m, RSN, "encryptedValue"], 1)
    mutate("name-bool", "name must be a string", base, [m, USER, "name"], True)
    mutate("tools-object", "tools must be an array", base, ["tools"], {"name": "x", "description": "y"})
    mutate("snake-case-keys", "snake_case keys: Python populates fields by name, TS sees required keys missing", base,
           ["thread_id"], "thread-1")
    # the snake_case case also needs threadId removed: fix up the last case
    doc = json.loads(cases[-1][4])
    del doc["threadId"]
    doc["run_id"] = doc.pop("runId")
    cases[-1] = (cases[-1][0], cases[-1][1], "threadId", cases[-1][3], compact(doc))
    raw("deep-201", "document nested 201 levels (state 200): past pydantic's JSON recursion limit of 200", "RunAgentInput",
        "state", compact(sdk_plain(rai([], state=deep_value(199))) | {"state": deep_value(200)}))
    raw("duplicate-key", "duplicate threadId key: both parsers keep the last value", "RunAgentInput", "threadId",
        '{"threadId":"first","runId":"r","threadId":"second","messages":[]}')
    raw("lone-surrogate", "a lone surrogate escape \\ud800 in a string", "RunAgentInput", "threadId",
        '{"threadId":"bad \\ud800 here","runId":"r","messages":[]}')
    raw("number-overflow", "1e400 overflows a double (Python holds inf, JavaScript Infinity; both accept because state is `any`)", "RunAgentInput", "state",
        '{"threadId":"t","runId":"r","messages":[],"state":{"x":1e400}}')
    raw("trailing-comma", "a trailing comma is not JSON", "RunAgentInput", "messages", '{"threadId":"t","runId":"r","messages":[],}')
    raw("truncated", "the document ends early", "RunAgentInput", "", compact(base)[:200])
    raw("not-an-object", "the document must be an object", "RunAgentInput", "", '["threadId","runId","messages"]')
    raw("invalid-utf8-escape", "an invalid escape \\x in a string", "RunAgentInput", "threadId",
        '{"threadId":"a\\x41","runId":"r","messages":[]}')
    raw("control-char-in-string", "a raw (unescaped) newline inside a string", "RunAgentInput", "threadId",
        '{"threadId":"a\nb","runId":"r","messages":[]}')

    # events
    def emut(name, reason, event_name, path, value=None, delete=False):
        mutate("event-" + name, reason, ev[event_name], path, value, delete, kind="Event")

    for t in ["THINKING_START", "THINKING_END", "THINKING_TEXT_MESSAGE_START", "THINKING_TEXT_MESSAGE_CONTENT",
              "THINKING_TEXT_MESSAGE_END"]:
        body = {"type": t}
        if t.startswith("THINKING_TEXT_MESSAGE"):
            body |= {"messageId": "m"}
        if t == "THINKING_TEXT_MESSAGE_CONTENT":
            body |= {"delta": "x"}
        if t == "THINKING_START":
            body |= {"title": "thinking"}
        raw("event-" + t.lower().replace("_", "-"), f"{t} was removed in 1.0", "Event", "type", compact(body))
    emut("timestamp-float", "timestamp must be an integer", "text-message-end-full", ["timestamp"], 1735689600000.5)
    emut("timestamp-float-integral", "timestamp written as 1.0 (an integral float): Python coerces it; JSON.parse reads it as the number 1, so zod's int check passes too", "text-message-end-full",
         ["timestamp"], 1.0)
    emut("timestamp-string", "timestamp as a numeric string: Python coerces, TS rejects", "text-message-end-full", ["timestamp"], "12")
    emut("timestamp-too-big", "timestamp 2^53 is out of range", "text-message-end-full", ["timestamp"], 2 ** 53)
    emut("timestamp-null", "timestamp may not be null in TS", "text-message-end-full", ["timestamp"], None)
    emut("unknown-type", "unknown event type", "text-message-end-full", ["type"], "TEXT_MESSAGE_FINISHED")
    emut("missing-type", "type is the event discriminator", "text-message-end-full", ["type"], delete=True)
    emut("type-lowercase", "event types are upper snake case", "text-message-end-full", ["type"], "text_message_end")
    emut("missing-message-id", "TEXT_MESSAGE_CONTENT needs messageId", "text-message-content-full", ["messageId"], delete=True)
    emut("missing-delta", "TEXT_MESSAGE_CONTENT needs delta", "text-message-content-full", ["delta"], delete=True)
    emut("reasoning-message-start-missing-role", "REASONING_MESSAGE_START without role: Python fills the default, TS requires it",
         "reasoning-message-start-full", ["role"], delete=True)
    emut("text-message-start-role-tool", "a streamed text message may not have role tool", "text-message-start-full", ["role"], "tool")
    emut("text-message-start-role-reasoning", "a streamed text message may not have role reasoning", "text-message-start-full",
         ["role"], "reasoning")
    emut("custom-missing-value", "CUSTOM value must be present (null is fine)", "custom-full", ["value"], delete=True)
    emut("raw-missing-event", "RAW event must be present (null is fine)", "raw-full", ["event"], delete=True)
    emut("state-snapshot-missing-snapshot", "STATE_SNAPSHOT snapshot must be present", "state-snapshot-full", ["snapshot"], delete=True)
    emut("state-delta-bad-pointer", "patch paths are JSON Pointers", "state-delta-full", ["delta", 0, "path"], "cart/-")
    emut("state-delta-bad-op", "unknown patch op", "state-delta-full", ["delta", 0, "op"], "merge")
    emut("state-delta-add-missing-value", "an add op needs a value", "state-delta-full", ["delta", 0, "value"], delete=True)
    emut("state-delta-move-missing-from", "a move op needs from", "state-delta-full", ["delta", 3, "from"], delete=True)
    emut("state-delta-object", "delta must be an array of ops", "state-delta-full", ["delta"], {"op": "add", "path": "/a", "value": 1})
    emut("run-finished-interrupt-empty", "an interrupt outcome needs at least one interrupt", "run-finished-interrupt",
         ["outcome", "interrupts"], [])
    emut("run-finished-outcome-null", "outcome may not be null in 1.0 TS", "run-finished-success", ["outcome"], None)
    emut("run-finished-outcome-unknown", "unknown outcome type", "run-finished-success", ["outcome", "type"], "timeout")
    emut("run-finished-result-null", "result may not be null in TS", "run-finished-success", ["result"], None)
    emut("interrupt-missing-reason", "Interrupt.reason is required", "run-finished-interrupt", ["outcome", "interrupts", 0, "reason"],
         delete=True)
    emut("interrupt-response-schema-array", "Interrupt.responseSchema must be an object", "run-finished-interrupt",
         ["outcome", "interrupts", 0, "responseSchema"], [1])
    emut("usage-negative-tokens", "token counts are non-negative", "run-finished-success", ["usage", 0, "inputTokens"], -1)
    emut("usage-float-tokens", "token counts are integers", "run-finished-success", ["usage", 0, "inputTokens"], 1.5)
    emut("tool-call-start-parent-message-id-null", "parentMessageId may not be null in 1.0 TS", "tool-call-start-full",
         ["parentMessageId"], None)
    emut("tool-call-result-role-user", "TOOL_CALL_RESULT role can only be tool", "tool-call-result-full", ["role"], "user")
    emut("tool-call-result-content-null", "TOOL_CALL_RESULT content is required", "tool-call-result-full", ["content"], None)
    emut("activity-snapshot-content-array", "activity content must be a non-array object", "activity-snapshot-full", ["content"], [])
    emut("activity-snapshot-replace-string", "replace as the string \"true\": Python coerces, TS rejects", "activity-snapshot-full",
         ["replace"], "true")
    emut("activity-snapshot-replace-number", "replace as 1: Python coerces to true, TS rejects", "activity-snapshot-full",
         ["replace"], 1)
    emut("reasoning-encrypted-value-bad-subtype", "subtype is tool-call or message", "reasoning-encrypted-value-message",
         ["subtype"], "tool_call")
    emut("subagent-started-missing-subagent-run-id", "SUBAGENT_STARTED needs subagentRunId", "subagent-started-full",
         ["subagentRunId"], delete=True)
    emut("subagent-finished-outcome-interrupt", "subagent outcomes are success or suspended", "subagent-finished-success",
         ["outcome", "type"], "interrupt")
    emut("raw-event-null", "rawEvent may not be null in TS", "text-message-end-full", ["rawEvent"], None)
    emut("metadata-null", "event metadata is absent or an object", "text-message-end-full", ["metadata"], None)
    emut("metadata-array", "event metadata must be an object", "text-message-end-full", ["metadata"], [])
    emut("messages-snapshot-bad-message", "MESSAGES_SNAPSHOT messages are validated like RunAgentInput messages",
         "messages-snapshot-full", ["messages", 2, "role"], "bot")
    emut("run-started-input-missing-run-id", "RUN_STARTED.input is a full RunAgentInput", "run-started-full", ["input", "runId"],
         delete=True)
    emut("subagent-run-id-number", "subagentRunId must be a string", "step-started-full", ["subagentRunId"], 3)

    # capabilities
    def cmut(name, reason, path, value=None, delete=False):
        mutate("capabilities-" + name, reason, caps, path, value, delete, kind="AgentCapabilities")

    cmut("max-iterations-negative", "maxIterations is a non-negative integer", ["execution", "maxIterations"], -1)
    cmut("max-execution-time-float", "maxExecutionTime is an integer", ["execution", "maxExecutionTime"], 1.5)
    cmut("max-iterations-float-integral", "maxIterations written 10.0 (an integral float): Python coerces it to 10; "
         "JSON.parse reads the number 10, so zod's int check passes too", ["execution", "maxIterations"], 10.0)
    raw("capabilities-max-iterations-exponent", "maxIterations written 1E2: an integer in exponent form (both SDKs read 100)",
        "AgentCapabilities", "execution.maxIterations", '{"execution":{"maxIterations":1E2}}')
    raw("capabilities-max-execution-time-negative-zero", "maxExecutionTime written -0: the integer 0 (both SDKs read 0)",
        "AgentCapabilities", "execution.maxExecutionTime", '{"execution":{"maxExecutionTime":-0}}')
    cmut("max-iterations-too-big", "maxIterations 2^53 is past the safe integer range both SDKs check",
         ["execution", "maxIterations"], 2 ** 53)
    cmut("streaming-string", "booleans: Python coerces \"yes\", TS rejects", ["transport", "streaming"], "yes")
    cmut("streaming-null", "optional booleans may not be null in TS", ["transport", "streaming"], None)
    cmut("custom-array", "custom must be an object", ["custom"], [1])
    cmut("identity-metadata-null", "identity metadata is absent or an object", ["identity", "metadata"], None)
    cmut("subagent-missing-name", "SubagentInfo.name is required", ["multiAgent", "subagents", 1, "name"], delete=True)
    cmut("tools-item-missing-description", "ToolsCapabilities.items are full Tools", ["tools", "items", 1, "description"], delete=True)
    cmut("mime-types-not-strings", "supportedMimeTypes holds strings", ["output", "supportedMimeTypes", 0], 1)
    cmut("group-array", "a capability group must be an object", ["transport"], [])
    return cases


# --------------------------------------------------------------------------- samples


def conversation() -> RunAgentInput:
    png = media.png(64, 64)
    pdf = media.pdf(["Expense report Q3", "Hotel Lumiere, Lyon (3 nights): 540.00 EUR",
                     "TGV Paris-Lyon, 2nd class: 89.50 EUR", "Team dinner: 126.00 EUR", "Total: 755.50 EUR"])
    search_args = {"destination": "Lyon", "checkIn": "2025-03-10", "nights": 3, "maxPricePerNight": 200}
    return RunAgentInput(
        thread_id="th_7f3c2a9e-travel", run_id="run_0004", parent_run_id="run_0003", protocol_version="1.0",
        state={"trip": {"destination": "Lyon", "dates": {"from": "2025-03-10", "to": "2025-03-13"}, "travellers": 1,
                        "budgetEur": 900},
               "bookings": [{"kind": "train", "ref": "TGV-6611", "priceEur": 89.5, "status": "confirmed"},
                            {"kind": "hotel", "ref": None, "priceEur": None, "status": "pending"}],
               "expenseReport": {"id": "EXP-2025-0312", "status": "draft", "lines": 3}, "ui": {"panel": "itinerary"}},
        messages=[
            SystemMessage(id="msg_sys", content="You are Atlas, a travel and expenses assistant for Example Corp. "
                                               "Follow the company travel policy. Amounts are in EUR unless stated."),
            DeveloperMessage(id="msg_dev", name="policy-engine",
                             content="Hotels above 200 EUR per night need manager approval. Never book without explicit confirmation."),
            UserMessage(id="msg_u1", name="ana", content="I need a hotel in Lyon from March 10 for three nights, close to Part-Dieu station.",
                        metadata={"client": "web", "locale": "en-GB"}),
            ReasoningMessage(id="msg_r1", content="Search hotels near Part-Dieu within policy; the train is already booked.",
                             encrypted_value="gAAAAABnX2VuY3J5cHRlZC1yZWFzb25pbmctdHJhY2U="),
            AssistantMessage(id="msg_a1", content="Let me search for hotels near Part-Dieu and check the weather for your dates.",
                             tool_calls=[
                                 ToolCall(id="call_hotels_1", function=FunctionCall(name="search_hotels", arguments=compact(search_args))),
                                 ToolCall(id="call_weather_1", function=FunctionCall(
                                     name="get_weather", arguments='{"city":"Lyon","from":"2025-03-10","days":3}'),
                                     metadata={"parallel": True}),
                             ]),
            ToolMessage(id="msg_t1", tool_call_id="call_hotels_1", content=compact({"results": [
                {"name": "Hotel Lumiere", "distanceM": 350, "pricePerNight": 180, "rating": 4.4},
                {"name": "Grand Hotel Part-Dieu", "distanceM": 120, "pricePerNight": 235, "rating": 4.6},
                {"name": "Ibis Centre", "distanceM": 600, "pricePerNight": 95, "rating": 3.9}]})),
            ToolMessage(id="msg_t2", tool_call_id="call_weather_1", content=[
                TextPart(text="Mostly sunny, highs of 14 °C, light rain possible on March 12."),
                ImagePart(source=UrlSource(value="https://weather.example.com/charts/lyon-2025-03-10.png", mime_type="image/png"))]),
            ActivityMessage(id="msg_act1", activity_type="HOTEL_COMPARISON", content={
                "columns": ["name", "pricePerNight", "distanceM"], "highlight": "Hotel Lumiere",
                "rows": [["Hotel Lumiere", 180, 350], ["Grand Hotel Part-Dieu", 235, 120], ["Ibis Centre", 95, 600]]}),
            AssistantMessage(id="msg_a2", content="Hotel Lumiere (180 EUR/night, 350 m from the station) fits the policy. "
                                                  "Grand Hotel Part-Dieu is closer but needs approval. Shall I book Hotel Lumiere?"),
            UserMessage(id="msg_u2", content="Yes, book Lumiere. Also here are my train ticket and last trip's report "
                                             "- please add the ticket to this quarter's expense report."),
            UserMessage(id="msg_u3", metadata={"attachments": 2}, content=[
                TextPart(text="Ticket photo and the Q3 report:"),
                ImagePart(id="att_ticket", source=DataSource(value=b64(png), mime_type="image/png"),
                          metadata={"filename": "ticket.png", "width": 64, "height": 64}),
                DocumentPart(id="att_report", source=DataSource(value=b64(pdf), mime_type="application/pdf"),
                             metadata={"filename": "expense-report-q3.pdf", "pages": 1}),
            ]),
            AssistantMessage(id="msg_a3", tool_calls=[ToolCall(id="call_book_1", function=FunctionCall(
                name="book_hotel", arguments=compact({"hotel": "Hotel Lumiere", "checkIn": "2025-03-10", "nights": 3,
                                                       "guest": {"name": "Ana Lima", "email": "ana@example.com"}})))]),
            ToolMessage(id="msg_t3", tool_call_id="call_book_1", content=compact({"confirmation": "LUM-88412", "totalEur": 540})),
            AssistantMessage(id="msg_a4", tool_calls=[ToolCall(id="call_exp_1", function=FunctionCall(
                name="add_expense", arguments=compact({"reportId": "EXP-2025-0312", "attachment": "att_ticket",
                                                        "amountEur": 89.5, "category": "rail"})))]),
            ToolMessage(id="msg_t4", tool_call_id="call_exp_1", content="",
                        error="Expense service unavailable (HTTP 503); retry later."),
        ],
        tools=[
            Tool(name="search_hotels", description="Search hotels near a location.", parameters={
                "type": "object", "properties": {
                    "destination": {"type": "string"}, "checkIn": {"type": "string", "format": "date"},
                    "nights": {"type": "integer", "minimum": 1, "maximum": 30}, "maxPricePerNight": {"type": "number"}},
                "required": ["destination", "checkIn", "nights"]}),
            Tool(name="get_weather", description="Weather forecast for a city.", parameters=WEATHER_PARAMS),
            Tool(name="book_hotel", description="Book a hotel room. Requires explicit user confirmation.", parameters={
                "type": "object", "properties": {
                    "hotel": {"type": "string"}, "checkIn": {"type": "string", "format": "date"}, "nights": {"type": "integer"},
                    "guest": {"type": "object", "properties": {"name": {"type": "string"},
                                                               "email": {"type": "string", "format": "email"}},
                              "required": ["name"]}}, "required": ["hotel", "checkIn", "nights", "guest"]},
                metadata={"requiresConfirmation": True}),
            Tool(name="add_expense", description="Add a line to an expense report.", parameters={
                "type": "object", "properties": {
                    "reportId": {"type": "string"}, "attachment": {"type": "string"}, "amountEur": {"type": "number"},
                    "category": {"type": "string", "enum": ["rail", "air", "hotel", "meal", "other"]}},
                "required": ["reportId", "amountEur", "category"]}),
        ],
        context=[
            Context(description="Employee", value='{"name":"Ana Lima","department":"Sales","costCentre":"CC-4410"}'),
            Context(description="Travel policy", value="Hotel cap 200 EUR/night; rail 2nd class; meals 60 EUR/day."),
            Context(description="Today", value="2025-02-20"),
        ],
        forwarded_props={"ui": {"theme": "dark", "surface": "side-panel"}, "client": {"name": "atlas-web", "version": "3.8.1"},
                         "experiments": ["hotel-cards-v2"]},
    )


def big_conversation() -> RunAgentInput:
    """The sample conversation after a long earlier history (about 150 KB): for the invalid samples."""
    conv = conversation()
    cities = ["Berlin", "Madrid", "Milan", "Porto", "Vienna", "Prague", "Ghent", "Lisbon", "Zurich", "Oslo"]
    history = []
    for i in range(120):
        city = cities[i % len(cities)]
        history.append(UserMessage(id=f"hist_u{i:03d}", content=(
            f"Trip {i + 1}: I was in {city} for {2 + i % 4} nights in {['January', 'April', 'June', 'October'][i % 4]}. "
            f"Can you check that the hotel receipt and the taxi from the airport were both filed on report EXP-2024-{i:04d}?")))
        history.append(AssistantMessage(id=f"hist_a{i:03d}", content=None if i % 3 == 0 else (
            f"Both items for {city} are on EXP-2024-{i:04d}: the hotel ({95 + i % 90} EUR per night) and the taxi "
            f"({18 + i % 40}.50 EUR). The report was approved by your manager."), tool_calls=[ToolCall(
                id=f"hist_call{i:03d}", function=FunctionCall(name="get_expense_report", arguments=compact(
                    {"reportId": f"EXP-2024-{i:04d}", "include": ["lines", "approvals"]})))] if i % 3 == 0 else None))
        if i % 3 == 0:
            history.append(ToolMessage(id=f"hist_t{i:03d}", tool_call_id=f"hist_call{i:03d}", content=compact({
                "reportId": f"EXP-2024-{i:04d}", "status": "approved", "lines": [
                    {"category": "hotel", "amountEur": (95 + i % 90) * (2 + i % 4), "receipt": True},
                    {"category": "taxi", "amountEur": 18.5 + i % 40, "receipt": True}]})))
    conv.messages = history + conv.messages
    return conv


def sample_run_events():
    ts = [TS0]

    def t():
        ts[0] += 37
        return ts[0]

    args = '{"destination":"Lyon","checkIn":"2025-03-10","nights":3}'
    return [
        RunStartedEvent(thread_id="th_7f3c2a9e-travel", run_id="run_0004", parent_run_id="run_0003", protocol_version="1.0",
                        timestamp=t()),
        StepStartedEvent(step_name="plan", timestamp=t()),
        ReasoningStartEvent(message_id="rsn_1", timestamp=t()),
        ReasoningMessageStartEvent(message_id="rsn_1", timestamp=t()),
        ReasoningMessageContentEvent(message_id="rsn_1", delta="User wants a hotel near Part-Dieu; ", timestamp=t()),
        ReasoningMessageContentEvent(message_id="rsn_1", delta="check policy cap of 200 EUR.", timestamp=t()),
        ReasoningMessageEndEvent(message_id="rsn_1", timestamp=t()),
        ReasoningEncryptedValueEvent(subtype="message", entity_id="rsn_1", encrypted_value="gAAAAABnX2VuY3J5cHRlZA==", timestamp=t()),
        ReasoningEndEvent(message_id="rsn_1", timestamp=t()),
        StepFinishedEvent(step_name="plan", timestamp=t()),
        StepStartedEvent(step_name="search", timestamp=t()),
        TextMessageStartEvent(message_id="msg_a1", role="assistant", timestamp=t()),
        TextMessageContentEvent(message_id="msg_a1", delta="Let me search for hotels ", timestamp=t()),
        TextMessageContentEvent(message_id="msg_a1", delta="near Part-Dieu.", timestamp=t()),
        TextMessageEndEvent(message_id="msg_a1", timestamp=t()),
        ToolCallStartEvent(tool_call_id="call_hotels_1", tool_call_name="search_hotels", parent_message_id="msg_a1", timestamp=t()),
        ToolCallArgsEvent(tool_call_id="call_hotels_1", delta=args[:22], timestamp=t()),
        ToolCallArgsEvent(tool_call_id="call_hotels_1", delta=args[22:], timestamp=t()),
        ToolCallEndEvent(tool_call_id="call_hotels_1", timestamp=t()),
        ToolCallResultEvent(message_id="msg_t1", tool_call_id="call_hotels_1", role="tool", timestamp=t(),
                            content='{"results":[{"name":"Hotel Lumiere","pricePerNight":180},{"name":"Ibis Centre","pricePerNight":95}]}'),
        ActivitySnapshotEvent(message_id="msg_act1", activity_type="HOTEL_COMPARISON", replace=True, timestamp=t(),
                              content={"rows": [["Hotel Lumiere", 180]], "highlight": None}),
        ActivityDeltaEvent(message_id="msg_act1", activity_type="HOTEL_COMPARISON", timestamp=t(), patch=[
            {"op": "add", "path": "/rows/-", "value": ["Ibis Centre", 95]},
            {"op": "replace", "path": "/highlight", "value": "Hotel Lumiere"}]),
        StateSnapshotEvent(timestamp=t(), snapshot={"trip": {"destination": "Lyon", "nights": 3},
                                                    "bookings": [], "ui": {"panel": "search"}}),
        StateDeltaEvent(timestamp=t(), delta=[
            {"op": "add", "path": "/bookings/-", "value": {"kind": "hotel", "ref": None, "status": "pending"}},
            {"op": "replace", "path": "/ui/panel", "value": "itinerary"}]),
        CustomEvent(name="hotel_cards_v2.render", value={"cards": 2, "layout": "carousel"}, timestamp=t()),
        RawEvent(source="upstream-llm", timestamp=t(), event={"id": "chatcmpl-9x", "object": "chat.completion.chunk",
                                                              "choices": [{"index": 0, "finish_reason": "tool_calls"}]}),
        StepFinishedEvent(step_name="search", timestamp=t()),
        TextMessageStartEvent(message_id="msg_a2", role="assistant", timestamp=t()),
        TextMessageContentEvent(message_id="msg_a2", delta="Hotel Lumiere fits the policy at 180 EUR/night. ", timestamp=t()),
        TextMessageContentEvent(message_id="msg_a2", delta="Shall I book it?", timestamp=t()),
        TextMessageEndEvent(message_id="msg_a2", timestamp=t()),
        MessagesSnapshotEvent(timestamp=t(), messages=[
            UserMessage(id="msg_u1", content="I need a hotel in Lyon from March 10 for three nights."),
            AssistantMessage(id="msg_a1", content="Let me search for hotels near Part-Dieu.", tool_calls=[
                ToolCall(id="call_hotels_1", function=FunctionCall(name="search_hotels", arguments=args))]),
            ToolMessage(id="msg_t1", tool_call_id="call_hotels_1",
                        content='{"results":[{"name":"Hotel Lumiere","pricePerNight":180},{"name":"Ibis Centre","pricePerNight":95}]}'),
            AssistantMessage(id="msg_a2", content="Hotel Lumiere fits the policy at 180 EUR/night. Shall I book it?"),
        ]),
        RunFinishedEvent(thread_id="th_7f3c2a9e-travel", run_id="run_0004", timestamp=t(),
                         outcome=RunFinishedInterruptOutcome(interrupts=[Interrupt(
                             id="int_book_1", reason="confirmation", message="Book Hotel Lumiere, 3 nights, 540 EUR?",
                             response_schema={"type": "object", "properties": {"confirm": {"type": "boolean"}},
                                              "required": ["confirm"]}, expires_at="2025-01-01T00:30:00Z")]),
                         usage=[TokenUsage(provider="openai", model="gpt-x", input_tokens=5210, output_tokens=412,
                                           total_tokens=5622, reasoning_tokens=96, cached_input_tokens=4096)]),
    ]


def samples(write_doc):
    conv = conversation()
    pretty = json.dumps(sdk_plain(conv), ensure_ascii=False, indent=2) + "\n"
    write_doc(SAMPLES / "conversation.json", pretty,
              "Realistic multi-turn RunAgentInput: every role, tool calls and results, context, state, forwardedProps, "
              "a 64x64 PNG and a one-page PDF inline as data sources. Pretty-printed (json.dumps indent=2 of the SDK's model).")
    write_doc(SAMPLES / "conversation.compact.json", sdk_json(conv),
              "samples/conversation.json as the SDK writes it (compact).")
    caps = json.dumps(sdk_plain(full_capabilities()), ensure_ascii=False, indent=2) + "\n"
    write_doc(SAMPLES / "capabilities.json", caps, "A full AgentCapabilities document, pretty-printed.")
    encoder = EventEncoder()
    write_doc(SAMPLES / "run.sse", "".join(encoder.encode(e) for e in sample_run_events()),
              "A whole run as the Python SDK's EventEncoder streams it (text/event-stream).")
    # realistic invalid payloads
    bad = sdk_plain(conv)
    bad["messages"][2]["metadata"] = None
    write_doc(INVALID / "metadata-null.json", json.dumps(bad, ensure_ascii=False, indent=2) + "\n",
              "The conversation with messages[2].metadata null (Python accepts, TS rejects).")
    big = sdk_plain(big_conversation())
    del big["runId"]
    big = {k: v for k, v in big.items() if k != "threadId"} | {"threadId": big["threadId"]}
    write_doc(INVALID / "missing-run-id.json", json.dumps(big, ensure_ascii=False, indent=2) + "\n",
              "A long conversation (120 earlier trips of history, then the sample) without runId; threadId moved to the end, so a parser must read the whole document to notice.")
    ev = sdk_plain(RunStartedEvent(thread_id=conv.thread_id, run_id=conv.run_id, input=big_conversation()))
    del ev["input"]["runId"]
    write_doc(INVALID / "event-run-started-input-missing-run-id.json", compact(ev),
              "A RUN_STARTED event carrying the long conversation as input, with input.runId missing (deep in a large document).")
    text = sdk_json(conv)
    write_doc(INVALID / "truncated.json", text[: len(text) * 2 // 3],
              "The compact conversation cut off two thirds of the way through (inside the base64 payloads).")
    bad = sdk_plain(conv)
    args = json.loads(bad["messages"][4]["toolCalls"][0]["function"]["arguments"])
    bad["messages"][4]["toolCalls"][0]["function"]["arguments"] = args
    write_doc(INVALID / "tool-call-arguments-object.json", json.dumps(bad, ensure_ascii=False, indent=2) + "\n",
              "The conversation with a tool call's arguments sent as an object instead of a JSON string (a common client bug).")
    bad = sdk_plain(conv)
    bad["messages"][10]["content"][1] = {"type": "binary", "mimeType": "image/png", "data": bad["messages"][10]["content"][1]["source"]["value"],
                                         "filename": "ticket.png"}
    # In samples/, not samples/invalid/: agui-wire reads legacy parts. Its expected file still
    # records the SDKs' verdicts (reject format).
    write_doc(SAMPLES / "legacy-binary-part.json", json.dumps(bad, ensure_ascii=False, indent=2) + "\n",
              "The conversation with the PNG sent as a pre-1.0 binary part (rejected by both 1.0 SDKs; agui-wire reads it, as gateways should).")


INVALID_SAMPLES = [
    ("metadata-null", "messages[2].metadata", "metadata is absent or an object, never null"),
    ("missing-run-id", "runId", "runId is required"),
    ("event-run-started-input-missing-run-id", "input.runId", "RUN_STARTED.input is a full RunAgentInput, which needs runId"),
    ("truncated", "", "the document ends early: not JSON"),
    ("tool-call-arguments-object", "messages[4].toolCalls[0].function.arguments", "arguments is a JSON-encoded string, not an object"),
]

# Samples outside samples/invalid/ whose expected file is in the reject format (SDK verdicts).
LEGACY_SAMPLES = [
    ("legacy-binary-part", "messages[10].content[1]", "the pre-1.0 binary part is not a 1.0 content part"),
]


# --------------------------------------------------------------------------- build phase


def clean():
    for d in (ACCEPT, EVENTS, REJECT, INVALID):
        if d.exists():
            shutil.rmtree(d)
        d.mkdir(parents=True)
    for name in SAMPLE_FILES:
        (SAMPLES / name).unlink(missing_ok=True)


def build(work: Path):
    clean()
    for name, desc, model in accept_cases():
        write(ACCEPT / f"{name}.json", sdk_json(model), desc, "python", "RunAgentInput")
    for name, desc, text in escaped_variants():
        write(ACCEPT / f"{name}.json", text, desc, "python+handwritten-escapes", "RunAgentInput")
    for name, desc, model in capabilities_cases():
        write(ACCEPT / f"{name}.json", sdk_json(model), desc, "python", "AgentCapabilities")
    for name, desc, doc, _ in legacy_cases():
        write(ACCEPT / f"{name}.json", compact(doc), desc, "handwritten-legacy", "RunAgentInput")
    encoder = EventEncoder()
    stream, frames = [], []
    for name, desc, model in event_cases():
        write(EVENTS / f"{name}.json", sdk_json(model), desc, "python", "Event")
        stream.append(encoder.encode(model))
        frames.append(name)
    write(EVENTS / "all-events.python.sse", "".join(stream),
          "Every events/*.json event (Python-built) in one stream, written by ag_ui.encoder.EventEncoder.", "python-encoder", "Event")
    texts = {name: (EVENTS / f"{name}.json").read_text(encoding="utf-8") for name in frames}
    split = texts["text-message-content-full"].split(",", 2)
    variants = (
        "\ufeff: this stream starts with a BOM and a comment\r\n"
        "retry: 3000\r\n"
        "\r\n"
        "event: message\r\n"
        "id: 1\r\n"
        "data: " + texts["text-message-start-full"] + "\r\n"
        "\r\n"
        ": keep-alive\n"
        "data: " + split[0] + ",\n"
        "data: " + split[1] + ",\n"
        "data:" + split[2] + "\n"
        "\n"
        "id: 2\r"
        "data:" + texts["tool-call-args-full"] + "\r"
        "\r"
        "event: agui\n"
        "data: " + texts["state-delta-full"] + "\n"
        "unknown-field: ignored\n"
        "\n"
        "data: " + texts["run-finished-interrupt"] + "\n\n"
        ": a trailing event without its blank line is discarded\n"
        "data: {\"type\":\"RUN_ERROR\",\"message\":\"never dispatched\"}\n"
    )
    write(EVENTS / "handwritten-variants.sse", variants,
          "Hand-written SSE framing a proxy must read: BOM, comments, retry/event/id/unknown fields, CRLF, LF and CR line ends, "
          "data without the optional space, one event's JSON split over three data lines, and an unterminated final event "
          "(discarded). Its frames are events/*.json texts.", "handwritten", "Event")
    variant_frames = ["text-message-start-full", "text-message-content-full", "tool-call-args-full", "state-delta-full",
                      "run-finished-interrupt"]
    assert len(sse_frames(variants)) == len(variant_frames)
    (work / "sse-frames.json").write_text(json.dumps({"tests/conformance/events/all-events.python.sse": frames,
                                                  "tests/conformance/events/handwritten-variants.sse": variant_frames}))
    (work / "media.json").write_text(json.dumps({"png4": b64(TINY_PNG), "pdf": b64(TINY_PDF)}))
    for name, kind, path, reason, text in reject_cases():
        write(REJECT / f"{name}.json", text, reason, "python+mutation", kind)

    def write_sample(path, text, desc):
        write(path, text, desc, "python", "Event" if path.suffix == ".sse" else kind_of(str(path.relative_to(REPO))))

    samples(write_sample)
    reject_meta = {f"tests/conformance/reject/{name}.json": {"path": path, "reason": reason}
                   for name, kind, path, reason, _ in reject_cases()}
    reject_meta |= {f"samples/invalid/{name}.json": {"path": path, "reason": reason} for name, path, reason in INVALID_SAMPLES}
    reject_meta |= {f"samples/{name}.json": {"path": path, "reason": reason} for name, path, reason in LEGACY_SAMPLES}
    (work / "py-manifest.json").write_text(json.dumps({"manifest": MANIFEST, "reject": reject_meta}, ensure_ascii=False))


# --------------------------------------------------------------------------- expect phase


def py_error(exc) -> dict:
    if isinstance(exc, ValidationError):
        err = exc.errors(include_url=False, include_context=False, include_input=False)[0]
        return {"loc": list(err["loc"]), "type": err["type"], "message": err["msg"]}
    return {"loc": [], "type": type(exc).__name__, "message": str(exc)}


def py_verdict(kind, text, mode):
    try:
        model = (parse_json_mode if mode == "json" else parse_python_mode)(kind, text)
        return True, model, None
    except (ValidationError, ValueError) as exc:
        return False, None, py_error(exc)


def differences(py_flat: dict, ts_flat: dict) -> dict:
    diff = {}
    for key in list(py_flat) + [k for k in ts_flat if k not in py_flat]:
        in_py, in_ts = key in py_flat, key in ts_flat
        if in_py and in_ts and flat.json_equal(py_flat[key], ts_flat[key]):
            continue
        entry = {}
        if in_py:
            entry["python"] = py_flat[key]
        if in_ts:
            entry["typescript"] = ts_flat[key]
        diff[key] = entry
    return diff


def finite(value):
    """Non-finite floats (only reachable through number overflow) as the strings JSON cannot hold otherwise."""
    if isinstance(value, float) and value != value:
        return "NaN"
    if isinstance(value, float) and value in (float("inf"), float("-inf")):
        return "Infinity" if value > 0 else "-Infinity"
    if isinstance(value, dict):
        return {k: finite(v) for k, v in value.items()}
    if isinstance(value, list):
        return [finite(v) for v in value]
    return value


def dump_expected(path: Path, obj) -> None:
    path.write_text(json.dumps(obj, ensure_ascii=False, indent=2, allow_nan=False) + "\n", encoding="utf-8")


def expect(work: Path):
    py_manifest = json.loads((work / "py-manifest.json").read_text())
    ts = json.loads((work / "ts-results.json").read_text())
    manifest = py_manifest["manifest"] | ts["manifest"]
    results = ts["results"]
    frames_of = json.loads((work / "sse-frames.json").read_text()) | ts["sseFrames"]
    legacy = {f"tests/conformance/accept/{name}.json": (doc, exp) for name, _, doc, exp in legacy_cases()}
    problems = []
    diff_log = {}

    for rel in sorted(manifest):
        info = manifest[rel]
        path = REPO / rel
        text = path.read_text(encoding="utf-8")
        kind = info["kind"]
        tsr = results[rel]
        if rel.endswith(".sse"):
            frames = sse_frames(text)
            names = frames_of.get(rel)
            if names is not None and len(names) != len(frames):
                problems.append(f"{rel}: {len(frames)} frames, {len(names)} names")
                continue
            for i, frame in enumerate(frames):
                ok, frame_model, err = py_verdict("Event", frame, "json")
                if not ok or not tsr["frames"][i]["ok"]:
                    problems.append(f"{rel} frame {i}: python {err} ts {tsr['frames'][i]}")
                    continue
                if names is None:
                    continue
                # each frame must parse, in each SDK, to what the named events/*.json parses to
                event_rel = f"tests/conformance/events/{names[i]}.json"
                file_model = parse_json_mode("Event", (REPO / event_rel).read_text(encoding="utf-8"))
                if differences(flat.flatten(frame_model), flat.flatten(file_model)):
                    problems.append(f"{rel} frame {i}: Python model differs from {event_rel}")
                if differences(tsr["frames"][i]["flat"], results[event_rel]["flat"]):
                    problems.append(f"{rel} frame {i}: TypeScript model differs from {event_rel}")
            if names is not None:
                dump_expected(path.with_name(path.name + ".expected.json"), {"frames": names})
            continue
        if rel in legacy:
            doc, exp = legacy[rel]
            ok_py, _, err_py = py_verdict(kind, text, "json")
            for msg_i, msg in enumerate(doc["messages"]):
                for part in msg["content"] if isinstance(msg["content"], list) else []:
                    if part["type"] == "binary":
                        BinaryInputContent.model_validate(part)  # the deprecated model must accept the seed shape
            out = dict(exp)
            out["_sdk_verdicts"] = {"python": "accepts" if ok_py else "rejects",
                                    "typescript": "accepts" if tsr["ok"] else "rejects",
                                    "note": "written by hand from the seeds: the 1.0 SDKs reject the `binary` part; each "
                                            "binary part alone validates against the deprecated ag_ui.core.BinaryInputContent"}
            dump_expected(path.with_name(path.stem + ".expected.json"), out)
            continue
        ok_py, model, err_py = py_verdict(kind, text, "json")
        ok_pyd, _, err_pyd = py_verdict(kind, text, "python")
        is_reject = (rel.startswith("tests/conformance/reject/") or rel.startswith("samples/invalid/")
                     or rel in {f"samples/{name}.json" for name, _, _ in LEGACY_SAMPLES})
        if is_reject:
            meta = py_manifest["reject"].get(rel, {})
            out = {"python": "accepts" if ok_py else "rejects",
                   "typescript": "accepts" if tsr["ok"] else "rejects",
                   "path": meta.get("path", tsr.get("path_hint", "")),
                   "reason": meta.get("reason", info["description"]),
                   "kind": kind,
                   "python_validate_python": "accepts" if ok_pyd else "rejects"}
            if not ok_py:
                out["python_error"] = err_py
            if not tsr["ok"]:
                out["typescript_error"] = tsr["error"]
            notes = []
            if ok_py and not tsr["ok"]:
                notes.append("Python accepts but TypeScript rejects.")
            if tsr["ok"] and not ok_py:
                notes.append("TypeScript accepts but Python rejects.")
            if ok_py != ok_pyd:
                notes.append("Python's answer depends on the entry point: model_validate_json "
                             f"{'accepts' if ok_py else 'rejects'}, model_validate(json.loads(...)) "
                             f"{'accepts' if ok_pyd else 'rejects'}.")
            if ok_py and tsr["ok"]:
                pyf = flat.flatten(model)
                at = out["path"]
                values = {}
                if at in pyf:
                    values["python"] = finite(pyf[at])
                if at in tsr["flat"]:
                    values["typescript"] = tsr["flat"][at]
                out["values"] = values
                notes.append("Both SDKs accept this document; `values` holds what each parsed model has at `path` "
                             "(a side is missing where its model holds nothing there).")
            if notes:
                out["note"] = " ".join(notes)
            dump_expected(path.with_name(path.stem + ".expected.json"), out)
            continue
        # accepted documents: both SDKs must accept
        if not ok_py or not tsr["ok"]:
            problems.append(f"{rel}: python={'ok' if ok_py else err_py} ts={'ok' if tsr['ok'] else tsr['error']}")
            continue
        if not ok_pyd:
            problems.append(f"{rel}: model_validate(json.loads) rejects: {err_pyd}")
        if rel.startswith("samples/"):
            continue
        pyf = flat.flatten(model)
        d = differences(pyf, tsr["flat"])
        out = dict(pyf)
        if d:
            out["_sdk_differences"] = d
            diff_log[rel] = d
        dump_expected(path.with_name(path.stem + ".expected.json"), out)

    if problems:
        for p in problems:
            print("PROBLEM:", p, file=sys.stderr)
        sys.exit(1)

    versions = {
        "python": {name: importlib.metadata.version(name) for name in
                   ["ag-ui-protocol", "pydantic", "pydantic-core", "annotated-types", "typing-extensions", "typing-inspection"]},
        "typescript": ts["versions"],
        "runtime": {"python": ".".join(platform.python_version_tuple()[:2]), "node": ts["nodeMajor"]},
        "protocolVersion": {"python": __import__("ag_ui.core", fromlist=["PROTOCOL_VERSION"]).PROTOCOL_VERSION,
                            "typescript": ts["protocolVersion"]},
    }
    dump_expected(CONF / "VERSIONS.json", versions)
    dump_expected(CONF / "MANIFEST.json", {rel: manifest[rel] for rel in sorted(manifest)})
    counts = {}
    for rel in manifest:
        top = rel.split("/")[-2] if rel.startswith("tests/") else ("samples/invalid" if "/invalid/" in rel else "samples")
        counts[top] = counts.get(top, 0) + 1
    print("documents:", json.dumps(counts, sort_keys=True))
    print("accepted documents with SDK differences:", len(diff_log))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("phase", choices=["build", "expect"])
    ap.add_argument("--work", required=True, type=Path)
    args = ap.parse_args()
    args.work.mkdir(parents=True, exist_ok=True)
    build(args.work) if args.phase == "build" else expect(args.work)


if __name__ == "__main__":
    main()
