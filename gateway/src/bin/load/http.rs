//! Just enough HTTP/1.1 for the benchmark: request and response heads, `Content-Length` and
//! chunked bodies.

use std::io;

use tokio::io::{AsyncBufRead, AsyncBufReadExt, AsyncReadExt};

/// A message head.
pub struct Head {
    /// The request path, or the response status as text.
    pub path: String,
    pub content_length: usize,
    pub chunked: bool,
}

/// Reads one head; `None` at a clean end of the connection.
pub async fn read_head<R: AsyncBufRead + Unpin>(rd: &mut R) -> io::Result<Option<Head>> {
    let mut line = String::new();
    if rd.read_line(&mut line).await? == 0 {
        return Ok(None);
    }
    let path = line.split_whitespace().nth(1).unwrap_or("").to_string();
    let mut head = Head {
        path,
        content_length: 0,
        chunked: false,
    };
    loop {
        line.clear();
        if rd.read_line(&mut line).await? == 0 {
            return Err(io::ErrorKind::UnexpectedEof.into());
        }
        let l = line.trim_end();
        if l.is_empty() {
            return Ok(Some(head));
        }
        if let Some((k, v)) = l.split_once(':') {
            let v = v.trim();
            if k.eq_ignore_ascii_case("content-length") {
                head.content_length = v.parse().unwrap_or(0);
            } else if k.eq_ignore_ascii_case("transfer-encoding") && v.contains("chunked") {
                head.chunked = true;
            }
        }
    }
}

/// Reads and drops `n` bytes.
pub async fn read_exact_discard<R: AsyncBufRead + Unpin>(
    rd: &mut R,
    mut n: usize,
) -> io::Result<()> {
    while n > 0 {
        let buf = rd.fill_buf().await?;
        if buf.is_empty() {
            return Err(io::ErrorKind::UnexpectedEof.into());
        }
        let k = buf.len().min(n);
        rd.consume(k);
        n -= k;
    }
    Ok(())
}

/// Reads a response body; calls `on_data` with each piece of it; returns the bytes read.
pub async fn read_body<R: AsyncBufRead + Unpin>(
    rd: &mut R,
    head: &Head,
    mut on_data: impl FnMut(&[u8]),
) -> io::Result<usize> {
    if !head.chunked {
        let mut left = head.content_length;
        while left > 0 {
            let buf = rd.fill_buf().await?;
            if buf.is_empty() {
                return Err(io::ErrorKind::UnexpectedEof.into());
            }
            let k = buf.len().min(left);
            on_data(&buf[..k]);
            rd.consume(k);
            left -= k;
        }
        return Ok(head.content_length);
    }
    let mut total = 0;
    let mut line = String::new();
    loop {
        line.clear();
        if rd.read_line(&mut line).await? == 0 {
            return Err(io::ErrorKind::UnexpectedEof.into());
        }
        let size = usize::from_str_radix(line.trim().split(';').next().unwrap_or(""), 16)
            .map_err(|_| io::Error::new(io::ErrorKind::InvalidData, "chunk size"))?;
        if size == 0 {
            line.clear();
            rd.read_line(&mut line).await?;
            return Ok(total);
        }
        let mut left = size;
        while left > 0 {
            let buf = rd.fill_buf().await?;
            if buf.is_empty() {
                return Err(io::ErrorKind::UnexpectedEof.into());
            }
            let k = buf.len().min(left);
            on_data(&buf[..k]);
            rd.consume(k);
            left -= k;
        }
        total += size;
        let mut crlf = [0u8; 2];
        rd.read_exact(&mut crlf).await?;
    }
}
