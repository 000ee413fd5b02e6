"""Deterministic, real media files for the conformance corpus and the samples.

Nothing here reads the clock or a random source: the same interpreter and zlib
produce the same bytes on every run.
"""

import struct
import zlib


def _png_chunk(kind: bytes, data: bytes) -> bytes:
    crc = zlib.crc32(kind + data) & 0xFFFFFFFF
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", crc)


def png(width: int = 64, height: int = 64) -> bytes:
    """A valid RGB PNG: a diagonal gradient, a checkerboard band and a filled circle."""
    rows = []
    cx, cy, r2 = width * 0.62, height * 0.4, (width * 0.22) ** 2
    for y in range(height):
        row = bytearray([0])  # filter type 0 (None) for every scanline
        for x in range(width):
            red = (x * 255) // max(width - 1, 1)
            green = (y * 255) // max(height - 1, 1)
            blue = 160
            if height * 0.70 <= y < height * 0.85:
                on = ((x // 4) + (y // 4)) % 2 == 0
                red, green, blue = (250, 250, 250) if on else (30, 30, 30)
            if (x - cx) ** 2 + (y - cy) ** 2 <= r2:
                red, green, blue = 255, 200, 0
            row += bytes((red, green, blue))
        rows.append(bytes(row))
    raw = b"".join(rows)
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)  # 8-bit truecolour
    return (
        b"\x89PNG\r\n\x1a\n"
        + _png_chunk(b"IHDR", ihdr)
        + _png_chunk(b"IDAT", zlib.compress(raw, 9))
        + _png_chunk(b"IEND", b"")
    )


def _pdf_escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")


def pdf(lines) -> bytes:
    """A minimal valid one-page PDF 1.4 with Helvetica text and a correct xref table."""
    content = ["BT", "/F1 18 Tf", "72 740 Td", "22 TL"]
    for i, line in enumerate(lines):
        if i == 1:
            content.append("/F1 11 Tf")
            content.append("16 TL")
        content.append("(" + _pdf_escape(line) + ") Tj T*")
    content.append("ET")
    stream = ("\n".join(content) + "\n").encode("latin-1")
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] "
        b"/Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>",
        b"<< /Length " + str(len(stream)).encode() + b" >>\nstream\n" + stream + b"endstream",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
        b"<< /Title (Expense report Q3) /Producer (agui-wire conformance generator) >>",
    ]
    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += str(number).encode() + b" 0 obj\n" + body + b"\nendobj\n"
    xref_at = len(out)
    out += b"xref\n0 " + str(len(objects) + 1).encode() + b"\n"
    out += b"0000000000 65535 f \n"
    for offset in offsets:
        out += b"%010d 00000 n \n" % offset
    out += (
        b"trailer\n<< /Size "
        + str(len(objects) + 1).encode()
        + b" /Root 1 0 R /Info 6 0 R >>\nstartxref\n"
        + str(xref_at).encode()
        + b"\n%%EOF\n"
    )
    return bytes(out)


def wav(samples: int = 400, rate: int = 8000) -> bytes:
    """A valid 8-bit mono PCM WAV holding a short square wave."""
    data = bytes(200 if (i // 10) % 2 else 56 for i in range(samples))
    fmt = struct.pack("<HHIIHH", 1, 1, rate, rate, 1, 8)
    body = b"WAVE" + b"fmt " + struct.pack("<I", len(fmt)) + fmt
    body += b"data" + struct.pack("<I", len(data)) + data
    return b"RIFF" + struct.pack("<I", len(body)) + body
