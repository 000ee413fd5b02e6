//! The benchmark's upstream: a minimal HTTP/1.1 agent server on tokio that reads each body
//! whole and answers with a chunked event stream.
//!
//! * `/chat`: five events in one chunk (a short reply).
//! * `/events?n=N&per=K`: `RUN_STARTED`, N `TEXT_MESSAGE_CONTENT` events K to an HTTP chunk,
//!   then the end of the run.
//! * `/idle`: `RUN_STARTED`, then nothing until the client goes.

use std::sync::Arc;

use tokio::io::{AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::{TcpListener, TcpStream};

use crate::http::{read_exact_discard, read_head};

const START: &[u8] = b"data: {\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"r\"}\n\n";
const MSG_START: &[u8] =
    b"data: {\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"m\",\"role\":\"assistant\"}\n\n";
const TOKEN: &[u8] =
    b"data: {\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m\",\"delta\":\"token \"}\n\n";
const END: &[u8] = b"data: {\"type\":\"TEXT_MESSAGE_END\",\"messageId\":\"m\"}\n\ndata: {\"type\":\"RUN_FINISHED\",\"threadId\":\"t\",\"runId\":\"r\"}\n\n";

/// Events in one `/events` answer besides the N tokens.
pub const FRAME_EVENTS: usize = 4;
/// Events in a `/chat` answer.
pub const CHAT_EVENTS: usize = 5;

/// Serves until the process ends.
pub async fn serve(listener: TcpListener) {
    loop {
        let Ok((sock, _)) = listener.accept().await else {
            continue;
        };
        let _ = sock.set_nodelay(true);
        tokio::spawn(connection(sock));
    }
}

fn chunk(out: &mut Vec<u8>, data: &[u8]) {
    out.extend_from_slice(format!("{:x}\r\n", data.len()).as_bytes());
    out.extend_from_slice(data);
    out.extend_from_slice(b"\r\n");
}

async fn connection(sock: TcpStream) {
    let (rd, mut wr) = sock.into_split();
    let mut rd = BufReader::with_capacity(64 << 10, rd);
    let tokens: Arc<Vec<u8>> = Arc::new(TOKEN.repeat(1024));
    loop {
        let Ok(Some(head)) = read_head(&mut rd).await else {
            return;
        };
        if read_exact_discard(&mut rd, head.content_length)
            .await
            .is_err()
        {
            return;
        }
        let mut out = Vec::with_capacity(512);
        out.extend_from_slice(
            b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n",
        );
        let (path, query) = head.path.split_once('?').unwrap_or((&head.path, ""));
        let param = |k: &str| {
            query
                .split('&')
                .filter_map(|p| p.split_once('='))
                .find(|(n, _)| *n == k)
                .and_then(|(_, v)| v.parse::<usize>().ok())
        };
        match path {
            "/events" => {
                let n = param("n").unwrap_or(1000);
                let per = param("per").unwrap_or(1).clamp(1, 1024);
                chunk(&mut out, &[START, MSG_START].concat());
                let mut left = n;
                while left > 0 {
                    let k = left.min(per);
                    chunk(&mut out, &tokens[..k * TOKEN.len()]);
                    left -= k;
                    if out.len() >= 64 << 10 {
                        if wr.write_all(&out).await.is_err() {
                            return;
                        }
                        out.clear();
                    }
                }
                chunk(&mut out, END);
            }
            "/idle" => {
                chunk(&mut out, START);
                if wr.write_all(&out).await.is_err() {
                    return;
                }
                // Until the client goes: the read returns 0 or fails.
                let mut b = [0u8; 1];
                let _ = rd.read(&mut b).await;
                return;
            }
            _ => chunk(&mut out, &[START, MSG_START, TOKEN, END].concat()),
        }
        out.extend_from_slice(b"0\r\n\r\n");
        if wr.write_all(&out).await.is_err() {
            return;
        }
    }
}
