//! A provider's answer in a content coding it was not asked for.
//!
//! The proxy asks for none (`accept-encoding: identity`), but RFC 9110 lets a server pick any
//! coding when a request names none, and some compress anyway. An answer in gzip or zlib
//! (`deflate`) is decoded as it streams, so the client gets what its `content-type` says and
//! the entry stores the text; an answer in a coding the proxy cannot decode (`br`, `zstd`,
//! several stacked) is passed on as it came, its `content-encoding` with it, and not recorded.

use std::io::Write;

use bytes::Bytes;
use flate2::write::{GzDecoder, ZlibDecoder};

/// How an answer's body is decoded on its way through.
pub(crate) enum Decoding {
    /// Not encoded: passed on as it is.
    Identity,
    Gzip(GzDecoder<Vec<u8>>),
    Zlib(ZlibDecoder<Vec<u8>>),
}

impl Decoding {
    /// The decoding for a `content-encoding` header's value (`None`: no header), or the
    /// coding the proxy cannot decode.
    pub(crate) fn of(coding: Option<&str>) -> Result<Decoding, String> {
        let coding = coding.map(|c| c.trim().to_ascii_lowercase());
        match coding.as_deref() {
            None | Some("" | "identity") => Ok(Decoding::Identity),
            Some("gzip" | "x-gzip") => Ok(Decoding::Gzip(GzDecoder::new(Vec::new()))),
            Some("deflate") => Ok(Decoding::Zlib(ZlibDecoder::new(Vec::new()))),
            Some(other) => Err(other.to_owned()),
        }
    }

    /// Whether the body is decoded (its length and coding headers no longer hold).
    pub(crate) fn decodes(&self) -> bool {
        !matches!(self, Decoding::Identity)
    }

    /// The decoded bytes of the next chunk (possibly none yet).
    pub(crate) fn feed(&mut self, chunk: Bytes) -> Result<Bytes, String> {
        let out = match self {
            Decoding::Identity => return Ok(chunk),
            Decoding::Gzip(d) => d.write_all(&chunk).map(|()| std::mem::take(d.get_mut())),
            Decoding::Zlib(d) => d.write_all(&chunk).map(|()| std::mem::take(d.get_mut())),
        };
        out.map(Bytes::from).map_err(|e| self.broken(&e))
    }

    /// The last decoded bytes, once the body ended; an encoded body cut short is an error.
    pub(crate) fn finish(&mut self) -> Result<Bytes, String> {
        let out = match self {
            Decoding::Identity => return Ok(Bytes::new()),
            Decoding::Gzip(d) => d.try_finish().map(|()| std::mem::take(d.get_mut())),
            Decoding::Zlib(d) => d.try_finish().map(|()| std::mem::take(d.get_mut())),
        };
        out.map(Bytes::from).map_err(|e| self.broken(&e))
    }

    fn broken(&self, e: &std::io::Error) -> String {
        let coding = match self {
            Decoding::Gzip(_) => "gzip",
            _ => "deflate",
        };
        format!("the answer's {coding} encoding cannot be decoded: {e}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use flate2::Compression;
    use flate2::write::{GzEncoder, ZlibEncoder};

    fn decoded(mut d: Decoding, encoded: &[u8], piece: usize) -> Result<Vec<u8>, String> {
        let mut out = Vec::new();
        for chunk in encoded.chunks(piece) {
            out.extend_from_slice(&d.feed(Bytes::copy_from_slice(chunk))?);
        }
        out.extend_from_slice(&d.finish()?);
        Ok(out)
    }

    #[test]
    fn gzip_and_zlib_are_decoded_in_any_pieces() {
        let text = br#"{"choices":[{"message":{"content":"hello"}}]}"#.repeat(50);
        let mut gz = GzEncoder::new(Vec::new(), Compression::default());
        gz.write_all(&text).unwrap();
        let gz = gz.finish().unwrap();
        let mut zlib = ZlibEncoder::new(Vec::new(), Compression::default());
        zlib.write_all(&text).unwrap();
        let zlib = zlib.finish().unwrap();
        for piece in [1, 7, 4096] {
            let d = Decoding::of(Some("gzip")).unwrap();
            assert_eq!(decoded(d, &gz, piece).unwrap(), text);
            let d = Decoding::of(Some("Deflate")).unwrap();
            assert_eq!(decoded(d, &zlib, piece).unwrap(), text);
        }
        // Cut short, or not gzip at all: an error, never a guess.
        let d = Decoding::of(Some("gzip")).unwrap();
        let cut = decoded(d, &gz[..gz.len() / 2], 64).unwrap_err();
        assert!(
            cut.starts_with("the answer's gzip encoding cannot be decoded"),
            "{cut}"
        );
        let d = Decoding::of(Some("gzip")).unwrap();
        assert!(decoded(d, b"{\"plain\": true}", 64).is_err());
    }

    #[test]
    fn a_coding_the_proxy_cannot_decode_is_named() {
        assert!(!Decoding::of(None).unwrap().decodes());
        assert!(!Decoding::of(Some("identity")).unwrap().decodes());
        assert_eq!(Decoding::of(Some("br")).err().as_deref(), Some("br"));
        assert_eq!(
            Decoding::of(Some("gzip, br")).err().as_deref(),
            Some("gzip, br")
        );
    }
}
