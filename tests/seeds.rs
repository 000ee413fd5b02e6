//! Every C# example of the seed docs (`shared/seeds/`), written in its JSON wire form, parsed
//! and checked field by field.

use agui_wire::*;

fn parse<'a>(doc: &'a str, arena: &'a Bump) -> RunAgentInput<'a> {
    RunAgentInput::parse(doc.as_bytes(), arena).unwrap_or_else(|e| panic!("{e}\n{doc}"))
}

fn wrap(messages: &str) -> String {
    format!(r#"{{"threadId":"thread-1","runId":"run-1","messages":[{messages}]}}"#)
}

#[test]
fn run_agent_input_example() {
    let doc = r#"{
      "threadId": "thread-1",
      "runId": "run-1",
      "messages": [ { "id": "msg-1", "role": "user", "content": "Hello!" } ],
      "tools": [ {
        "name": "get_weather",
        "description": "Get the weather for a city",
        "parameters": {
          "type": "object",
          "properties": { "city": { "type": "string" } },
          "required": ["city"]
        }
      } ]
    }"#;
    let arena = Bump::new();
    let input = parse(doc, &arena);
    assert_eq!(input.thread_id, "thread-1");
    assert_eq!(input.run_id, "run-1");
    assert!(input.parent_run_id.is_none() && input.state.is_none());
    assert!(input.context.is_none() && input.forwarded_props.is_none() && input.resume.is_none());
    assert_eq!(input.messages.len(), 1);
    let Message::User(u) = &input.messages[0] else {
        panic!("not a user message")
    };
    assert_eq!(u.id, "msg-1");
    assert_eq!(u.content.as_text().unwrap(), "Hello!");
    let tools = input.tools.as_ref().unwrap();
    assert_eq!(tools.len(), 1);
    assert_eq!(tools[0].name, "get_weather");
    assert_eq!(
        tools[0].description.as_ref().unwrap(),
        "Get the weather for a city"
    );
    let params = tools[0].parameters.as_ref().unwrap();
    assert_eq!(params.kind(), JsonKind::Object);
    assert_eq!(
        params.to_serde_value().unwrap(),
        serde_json::json!({"type":"object","properties":{"city":{"type":"string"}},"required":["city"]})
    );
    assert!(tools[0].metadata.is_none());
}

#[test]
fn resume_entries() {
    let doc = r#"{"threadId":"t","runId":"r","messages":[],"resume":[
      {"interruptId":"int-1","status":"resolved","payload":{"approved":true},"metadata":{"sig":"abc","ag-ui":null}},
      {"interruptId":"int-2","status":"cancelled"}]}"#;
    let arena = Bump::new();
    let input = parse(doc, &arena);
    let r = input.resume.as_ref().unwrap();
    assert_eq!(r[0].interrupt_id, "int-1");
    assert_eq!(r[0].status, ResumeStatus::Resolved);
    assert_eq!(
        r[0].payload.as_ref().unwrap().text(),
        r#"{"approved":true}"#
    );
    assert_eq!(
        r[0].metadata.as_ref().unwrap().text(),
        r#"{"sig":"abc","ag-ui":null}"#
    );
    assert_eq!(r[1].status, ResumeStatus::Cancelled);
    assert!(r[1].payload.is_none() && r[1].metadata.is_none());
}

#[test]
fn developer_and_system_messages() {
    let arena = Bump::new();
    let doc = wrap(
        r#"{"id":"dev-1","role":"developer","content":"Prefer concise answers.","name":"policy"},
           {"id":"sys-1","role":"system","content":"You are a helpful assistant.","name":"system"}"#,
    );
    let input = parse(&doc, &arena);
    let Message::Developer(d) = &input.messages[0] else {
        panic!()
    };
    assert_eq!(
        (d.id.raw(), d.content.raw()),
        ("dev-1", "Prefer concise answers.")
    );
    assert_eq!(d.name.as_ref().unwrap(), "policy");
    assert!(d.encrypted_value.is_none() && d.metadata.is_none());
    let Message::System(s) = &input.messages[1] else {
        panic!()
    };
    assert_eq!(s.content, "You are a helpful assistant.");
    assert_eq!(s.name.as_ref().unwrap(), "system");
}

#[test]
fn assistant_with_tool_call() {
    let arena = Bump::new();
    let doc = wrap(
        r#"{"id":"asst-1","role":"assistant","content":"I can help with that.",
            "toolCalls":[{"id":"call-1","type":"function","function":{"name":"get_weather","arguments":"{\"city\":\"Seattle\"}"}}]}"#,
    );
    let input = parse(&doc, &arena);
    let Message::Assistant(a) = &input.messages[0] else {
        panic!()
    };
    assert_eq!(a.content.as_ref().unwrap(), "I can help with that.");
    let call = &a.tool_calls.as_ref().unwrap()[0];
    assert_eq!(call.id, "call-1");
    assert_eq!(call.call_type(), "function");
    assert_eq!(call.function.name, "get_weather");
    assert_eq!(call.function.arguments.unescaped(), r#"{"city":"Seattle"}"#);
    assert!(call.function.arguments.is_escaped());
}

#[test]
fn tool_call_type_defaults_to_function() {
    let arena = Bump::new();
    let doc = wrap(
        r#"{"id":"a","role":"assistant","toolCalls":[{"id":"c","function":{"name":"f","arguments":"{}"},"encryptedValue":"enc","metadata":{"k":1}}]}"#,
    );
    let input = parse(&doc, &arena);
    let Message::Assistant(a) = &input.messages[0] else {
        panic!()
    };
    let call = &a.tool_calls.as_ref().unwrap()[0];
    assert!(call.r#type.is_none());
    assert_eq!(call.call_type(), "function");
    assert_eq!(call.encrypted_value.as_ref().unwrap(), "enc");
    assert_eq!(call.metadata.as_ref().unwrap().text(), r#"{"k":1}"#);
}

#[test]
fn user_messages_text_and_multimodal() {
    let arena = Bump::new();
    let doc = wrap(
        r#"{"id":"user-1","role":"user","content":"Summarize this image."},
           {"id":"user-2","role":"user","content":[
              {"type":"text","text":"What is shown here?"},
              {"type":"image","source":{"type":"url","value":"https://example.com/screen.png","mimeType":"image/png"}}]}"#,
    );
    let input = parse(&doc, &arena);
    let Message::User(u1) = &input.messages[0] else {
        panic!()
    };
    assert_eq!(u1.content.as_text().unwrap(), "Summarize this image.");
    let Message::User(u2) = &input.messages[1] else {
        panic!()
    };
    let parts = u2.content.parts();
    assert_eq!(parts.len(), 2);
    let InputContent::Text(t) = &parts[0] else {
        panic!()
    };
    assert_eq!(t.text, "What is shown here?");
    let InputContent::Image(img) = &parts[1] else {
        panic!()
    };
    let InputContentSource::Url(url) = &img.source else {
        panic!()
    };
    assert_eq!(url.value, "https://example.com/screen.png");
    assert_eq!(url.mime_type.as_ref().unwrap(), "image/png");
}

#[test]
fn tool_messages_text_and_parts() {
    let arena = Bump::new();
    let doc = wrap(
        r#"{"id":"tool-msg-1","role":"tool","toolCallId":"call-1","content":"{\"temperature\":72}"},
           {"id":"tool-msg-2","role":"tool","toolCallId":"call-2","content":[
              {"type":"text","text":"Invoice attached."},
              {"type":"document","source":{"type":"url","value":"https://example.com/INV-2291.pdf","mimeType":"application/pdf"}}]}"#,
    );
    let input = parse(&doc, &arena);
    let Message::Tool(t1) = &input.messages[0] else {
        panic!()
    };
    assert_eq!(t1.tool_call_id, "call-1");
    assert_eq!(
        t1.content.as_text().unwrap().unescaped(),
        r#"{"temperature":72}"#
    );
    assert!(t1.error.is_none());
    let Message::Tool(t2) = &input.messages[1] else {
        panic!()
    };
    assert_eq!(t2.tool_call_id, "call-2");
    let InputContent::Document(doc_part) = &t2.content.parts()[1] else {
        panic!()
    };
    assert_eq!(doc_part.source.value(), &"https://example.com/INV-2291.pdf");
    assert_eq!(doc_part.source.mime_type().unwrap(), "application/pdf");
}

#[test]
fn activity_and_reasoning_messages() {
    let arena = Bump::new();
    let doc = wrap(
        r#"{"id":"activity-1","role":"activity","activityType":"PLAN","content":{"status":"running"}},
           {"id":"reasoning-1","role":"reasoning","content":"Thinking through the problem...","encryptedValue":"opaque"}"#,
    );
    let input = parse(&doc, &arena);
    let Message::Activity(a) = &input.messages[0] else {
        panic!()
    };
    assert_eq!(a.activity_type, "PLAN");
    assert_eq!(a.content.text(), r#"{"status":"running"}"#);
    let Message::Reasoning(r) = &input.messages[1] else {
        panic!()
    };
    assert_eq!(r.content, "Thinking through the problem...");
    assert_eq!(r.encrypted_value.as_ref().unwrap(), "opaque");
}

#[test]
fn context_and_state() {
    let arena = Bump::new();
    let doc = r#"{"threadId":"t","runId":"r","messages":[],
      "context":[{"description":"Current customer tier","value":"enterprise"}],
      "state":{"draft":"hello"},"forwardedProps":{"x":[1,2]}}"#;
    let input = parse(doc, &arena);
    let c = &input.context.as_ref().unwrap()[0];
    assert_eq!(
        (c.description.raw(), c.value.raw()),
        ("Current customer tier", "enterprise")
    );
    assert_eq!(input.state.as_ref().unwrap().text(), r#"{"draft":"hello"}"#);
    assert_eq!(
        input.forwarded_props.as_ref().unwrap().text(),
        r#"{"x":[1,2]}"#
    );
}

#[test]
fn tool_with_metadata() {
    let arena = Bump::new();
    let doc = r#"{"threadId":"t","runId":"r","messages":[],"tools":[{"name":"get_weather",
      "description":"Get the weather for a city",
      "parameters":{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]},
      "metadata":{"ui":"compact"}}]}"#;
    let input = parse(doc, &arena);
    let t = &input.tools.as_ref().unwrap()[0];
    assert_eq!(t.metadata.as_ref().unwrap().text(), r#"{"ui":"compact"}"#);
}

#[test]
fn multimodal_examples() {
    let arena = Bump::new();
    let doc = wrap(
        r#"{"id":"user-1","role":"user","content":[
             {"type":"text","text":"Summarize this PDF and screenshot"},
             {"type":"image","source":{"type":"url","value":"https://example.com/screen.png","mimeType":"image/png"}},
             {"type":"document","source":{"type":"url","value":"https://example.com/report.pdf","mimeType":"application/pdf"}}]},
           {"id":"q1","role":"user","content":[
             {"type":"text","text":"What issue do you see in this UI?"},
             {"type":"image","source":{"type":"url","value":"https://example.com/ui.png","mimeType":"image/png"},"metadata":{"detail":"high"}}]},
           {"id":"q2","role":"user","content":[
             {"type":"text","text":"Transcribe this recording."},
             {"type":"audio","source":{"type":"url","value":"https://example.com/meeting.wav","mimeType":"audio/wav"}}]},
           {"id":"q3","role":"user","content":[
             {"type":"text","text":"Compare the screenshot with the spec."},
             {"type":"image","source":{"type":"data","value":"iVBORw0KGgo=","mimeType":"image/png"}},
             {"type":"document","source":{"type":"url","value":"https://example.com/spec.pdf","mimeType":"application/pdf"}}]},
           {"id":"b1","role":"user","content":[
             {"type":"binary","mimeType":"application/octet-stream","data":"AAECAwQ=","filename":"payload.bin"}]},
           {"id":"v1","role":"user","content":[
             {"type":"video","id":"part-1","source":{"type":"file","value":"file-123","provider":"openai","mimeType":"video/mp4"}}]}"#,
    );
    let input = parse(&doc, &arena);
    let kinds: Vec<Vec<&str>> = input
        .messages
        .iter()
        .map(|m| m.parts().iter().map(|p| p.kind().as_str()).collect())
        .collect();
    assert_eq!(
        kinds,
        vec![
            vec!["text", "image", "document"],
            vec!["text", "image"],
            vec!["text", "audio"],
            vec!["text", "image", "document"],
            vec!["binary"],
            vec!["video"],
        ]
    );
    let q1 = input.messages[1].parts()[1].as_media().unwrap();
    assert_eq!(q1.metadata.as_ref().unwrap().text(), r#"{"detail":"high"}"#);
    let q3 = input.messages[3].parts()[1].as_media().unwrap();
    let InputContentSource::Data(d) = &q3.source else {
        panic!()
    };
    assert_eq!(
        (d.value.raw(), d.mime_type.raw()),
        ("iVBORw0KGgo=", "image/png")
    );
    let InputContent::Binary(b) = &input.messages[4].parts()[0] else {
        panic!()
    };
    assert_eq!(b.mime_type, "application/octet-stream");
    assert_eq!(b.data.as_ref().unwrap(), "AAECAwQ=");
    assert_eq!(b.filename.as_ref().unwrap(), "payload.bin");
    assert!(b.id.is_none() && b.url.is_none());
    let v = input.messages[5].parts()[0].as_media().unwrap();
    assert_eq!(v.id.as_ref().unwrap(), "part-1");
    let InputContentSource::File(f) = &v.source else {
        panic!()
    };
    assert_eq!(f.value, "file-123");
    assert_eq!(f.provider.as_ref().unwrap(), "openai");
    assert_eq!(f.mime_type.as_ref().unwrap(), "video/mp4");
}

#[test]
fn capabilities_example() {
    let arena = Bump::new();
    let doc = br#"{"identity":{"name":"Support Agent","version":"1.0.0"},
      "transport":{"streaming":true,"resumable":true},
      "tools":{"supported":true,"clientProvided":true},
      "multimodal":{"input":{"image":true,"audio":true,"pdf":true}}}"#;
    let caps = AgentCapabilities::parse(doc, &arena).unwrap();
    let id = caps.identity.as_ref().unwrap();
    assert_eq!(
        (
            id.name.as_ref().unwrap().raw(),
            id.version.as_ref().unwrap().raw()
        ),
        ("Support Agent", "1.0.0")
    );
    let t = caps.transport.as_ref().unwrap();
    assert_eq!(
        (t.streaming, t.resumable, t.websocket),
        (Some(true), Some(true), None)
    );
    let tools = caps.tools.as_ref().unwrap();
    assert_eq!(
        (tools.supported, tools.client_provided, tools.parallel_calls),
        (Some(true), Some(true), None)
    );
    let mm = caps.multimodal.as_ref().unwrap().input.as_ref().unwrap();
    assert_eq!(
        (mm.image, mm.audio, mm.pdf, mm.video, mm.file),
        (Some(true), Some(true), Some(true), None, None)
    );
    assert!(caps.output.is_none() && caps.state.is_none() && caps.custom.is_none());
}

#[test]
fn capabilities_all_groups() {
    let arena = Bump::new();
    let doc = br#"{
      "identity":{"name":"n","type":"t","description":"d","version":"v","provider":"p","documentationUrl":"u","metadata":{"a":1}},
      "transport":{"streaming":true,"websocket":false,"httpBinary":true,"pushNotifications":false,"resumable":true},
      "tools":{"supported":true,"items":[{"name":"x","description":"y"}],"parallelCalls":true,"clientProvided":false},
      "output":{"structuredOutput":true,"supportedMimeTypes":["text/plain","image/png"]},
      "state":{"snapshots":true,"deltas":true,"memory":false,"persistentState":true},
      "multiAgent":{"supported":true,"delegation":false,"handoffs":true,"subagents":[{"name":"r","description":"research"}]},
      "reasoning":{"supported":true,"streaming":true,"encrypted":false},
      "multimodal":{"input":{"image":true,"audio":false,"video":true,"pdf":false,"file":true},"output":{"image":true,"audio":false}},
      "execution":{"codeExecution":true,"sandboxed":true,"maxIterations":10,"maxExecutionTime":30000},
      "humanInTheLoop":{"supported":true,"approvals":true,"interventions":false,"feedback":true,"interrupts":true,"approveWithEdits":false},
      "custom":{"x":{"y":[1]}}}"#;
    let c = AgentCapabilities::parse(doc, &arena).unwrap();
    let id = c.identity.unwrap();
    assert_eq!(id.documentation_url.unwrap(), "u");
    assert_eq!(id.r#type.unwrap(), "t");
    assert_eq!(id.metadata.unwrap().text(), r#"{"a":1}"#);
    assert_eq!(c.transport.unwrap().http_binary, Some(true));
    let tools = c.tools.unwrap();
    assert_eq!(tools.items.unwrap()[0].name, "x");
    let out = c.output.unwrap();
    assert_eq!(out.supported_mime_types.unwrap()[1], "image/png");
    assert_eq!(c.state.unwrap().persistent_state, Some(true));
    let ma = c.multi_agent.unwrap();
    assert_eq!(
        ma.subagents.unwrap()[0].description.as_ref().unwrap(),
        "research"
    );
    assert_eq!(c.reasoning.unwrap().encrypted, Some(false));
    let mm = c.multimodal.unwrap();
    assert_eq!(mm.output.unwrap().image, Some(true));
    assert_eq!(mm.input.unwrap().file, Some(true));
    let ex = c.execution.unwrap();
    assert_eq!(
        (ex.max_iterations, ex.max_execution_time),
        (Some(10), Some(30000))
    );
    assert_eq!(c.human_in_the_loop.unwrap().approve_with_edits, Some(false));
    assert_eq!(c.custom.unwrap().text(), r#"{"x":{"y":[1]}}"#);
}

#[test]
fn python_1_0_additions() {
    let arena = Bump::new();
    let doc = r#"{"threadId":"t","runId":"r","protocolVersion":"1.0","parentRunId":"r0","messages":[
      {"id":"m","role":"user","subagentRunId":"sub-1","content":[{"type":"text","id":"p1","text":"hi","metadata":["any",1]}]}]}"#;
    let input = parse(doc, &arena);
    assert_eq!(input.protocol_version.as_ref().unwrap(), "1.0");
    assert_eq!(input.parent_run_id.as_ref().unwrap(), "r0");
    let Message::User(u) = &input.messages[0] else {
        panic!()
    };
    assert_eq!(u.subagent_run_id.as_ref().unwrap(), "sub-1");
    let InputContent::Text(t) = &u.content.parts()[0] else {
        panic!()
    };
    assert_eq!(t.id.as_ref().unwrap(), "p1");
    assert_eq!(t.metadata.as_ref().unwrap().kind(), JsonKind::Array);
}
