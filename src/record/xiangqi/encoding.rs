//! The encodings xiangqi records come in (Big5, GBK/GB18030, UTF-8 with or without its
//! mark, UTF-16), told apart from the bytes alone.
//!
//! Big5 and GBK cannot be told apart by validity: almost every Big5 pair of bytes is also a
//! GBK pair, and the other way round. What tells them apart is what the text says: a
//! xiangqi record is full of 车 馬 炮 進 退 平 and numbers, and decoded in the wrong
//! encoding those bytes become unrelated characters. So each candidate is decoded and
//! scored by how many characters of xiangqi notation it yields, less those it could not
//! decode; chardetng settles a tie (a file with no Chinese moves at all).

use encoding_rs::{Encoding as Codec, BIG5, GBK, UTF_16BE, UTF_16LE};

/// The encoding a record was read in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Encoding {
    /// UTF-8 without a byte-order mark.
    Utf8,
    /// UTF-8 with its byte-order mark (EF BB BF).
    Utf8Bom,
    /// UTF-16, little-endian (with or without its mark).
    Utf16Le,
    /// UTF-16, big-endian (with or without its mark).
    Utf16Be,
    /// GB18030, which includes GBK and GB2312 (mainland tools).
    Gb18030,
    /// Big5, traditional characters (Taiwan and Hong Kong tools; the CCPD books).
    Big5,
}

impl Encoding {
    /// The encoding's usual name: `UTF-8`, `GB18030`, `Big5` ….
    pub fn name(self) -> &'static str {
        match self {
            Encoding::Utf8 => "UTF-8",
            Encoding::Utf8Bom => "UTF-8 (BOM)",
            Encoding::Utf16Le => "UTF-16LE",
            Encoding::Utf16Be => "UTF-16BE",
            Encoding::Gb18030 => "GB18030",
            Encoding::Big5 => "Big5",
        }
    }
}

/// Characters of xiangqi notation and records, in both scripts: a text decoded in the right
/// encoding is full of them.
const XIANGQI_CHARS: &str = "车車俥马馬傌炮砲包兵卒帅帥将將仕士相象进進退平前后後中\
一二三四五六七八九１２３４５６７８９红紅黑胜勝负負和局象棋";

/// Decodes a record's bytes: the text and the encoding it was in.
///
/// ```
/// use qiyuan::record::xiangqi::{decode, Encoding};
/// // 馬８進７ in Big5, then 马8进7 in GBK.
/// let big5 = b"\xb0\xa8\xa2\xb7\xb6i\xa2\xb6";
/// assert_eq!(decode(big5), ("馬８進７".to_string(), Encoding::Big5));
/// let gbk = b"\xc2\xed8\xbd\xf87";
/// assert_eq!(decode(gbk), ("马8进7".to_string(), Encoding::Gb18030));
/// assert_eq!(decode("\u{feff}炮二平五".as_bytes()).1, Encoding::Utf8Bom);
/// ```
pub fn decode(bytes: &[u8]) -> (String, Encoding) {
    if let Some(rest) = bytes.strip_prefix(b"\xef\xbb\xbf") {
        return (
            String::from_utf8_lossy(rest).into_owned(),
            Encoding::Utf8Bom,
        );
    }
    if let Some(rest) = bytes.strip_prefix(b"\xff\xfe") {
        return (with(UTF_16LE, rest), Encoding::Utf16Le);
    }
    if let Some(rest) = bytes.strip_prefix(b"\xfe\xff") {
        return (with(UTF_16BE, rest), Encoding::Utf16Be);
    }
    if let Some(order) = utf16_without_mark(bytes) {
        return match order {
            Encoding::Utf16Le => (with(UTF_16LE, bytes), order),
            _ => (with(UTF_16BE, bytes), Encoding::Utf16Be),
        };
    }
    if let Ok(text) = std::str::from_utf8(bytes) {
        return (text.to_string(), Encoding::Utf8);
    }
    let gbk = with(GBK, bytes);
    let big5 = with(BIG5, bytes);
    let (g, b) = (score(&gbk), score(&big5));
    if g > b {
        return (gbk, Encoding::Gb18030);
    }
    if b > g {
        return (big5, Encoding::Big5);
    }
    let mut detector = chardetng::EncodingDetector::new(chardetng::Iso2022JpDetection::Deny);
    detector.feed(bytes, true);
    let tld_free = detector.guess(None, chardetng::Utf8Detection::Deny);
    if tld_free == BIG5 {
        (big5, Encoding::Big5)
    } else {
        (gbk, Encoding::Gb18030)
    }
}

fn with(codec: &'static Codec, bytes: &[u8]) -> String {
    codec.decode_without_bom_handling(bytes).0.into_owned()
}

/// UTF-16 without a byte-order mark: a record's text is mostly ASCII (tags, numbers,
/// spaces), so one byte of each pair is zero far more often than not.
fn utf16_without_mark(bytes: &[u8]) -> Option<Encoding> {
    let head = &bytes[..bytes.len().min(4096) & !1];
    if head.len() < 4 {
        return None;
    }
    let pairs = head.len() / 2;
    let even = head.iter().step_by(2).filter(|&&b| b == 0).count();
    let odd = head.iter().skip(1).step_by(2).filter(|&&b| b == 0).count();
    if odd * 3 > pairs && even * 10 < pairs {
        Some(Encoding::Utf16Le)
    } else if even * 3 > pairs && odd * 10 < pairs {
        Some(Encoding::Utf16Be)
    } else {
        None
    }
}

/// How much a decoded text looks like a xiangqi record: its notation characters, less ten
/// for each byte sequence that did not decode.
fn score(text: &str) -> i64 {
    text.chars()
        .map(|c| {
            if c == '\u{fffd}' {
                -10
            } else if XIANGQI_CHARS.contains(c) {
                1
            } else {
                0
            }
        })
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn encoded(codec: &'static Codec, text: &str) -> Vec<u8> {
        codec.encode(text).0.into_owned()
    }

    #[test]
    fn big5_and_gbk_are_told_apart_by_what_they_say() {
        let traditional = "[Game \"Chinese Chess\"]\n1. 炮二平五 馬８進７ 2. 馬二進三 車９平８";
        let simplified = "[Game \"Chinese Chess\"]\n1. 炮二平五 马8进7 2. 马二进三 车9平8";
        assert_eq!(
            decode(&encoded(BIG5, traditional)),
            (traditional.into(), Encoding::Big5)
        );
        assert_eq!(
            decode(&encoded(GBK, simplified)),
            (simplified.into(), Encoding::Gb18030)
        );
        // Traditional characters in GBK (GBK has them too).
        assert_eq!(decode(&encoded(GBK, traditional)).1, Encoding::Gb18030);
    }

    #[test]
    fn utf16_is_read_with_or_without_its_mark() {
        let text = "1. 炮二平五 马8进7";
        let le: Vec<u8> = text.encode_utf16().flat_map(|u| u.to_le_bytes()).collect();
        let be: Vec<u8> = text.encode_utf16().flat_map(|u| u.to_be_bytes()).collect();
        assert_eq!(decode(&le), (text.into(), Encoding::Utf16Le));
        assert_eq!(decode(&be), (text.into(), Encoding::Utf16Be));
        let marked = [&b"\xff\xfe"[..], &le].concat();
        assert_eq!(decode(&marked), (text.into(), Encoding::Utf16Le));
    }

    #[test]
    fn any_bytes_decode_without_panic() {
        for bytes in [&b""[..], b"\x00", b"\xff", b"\xfe\xff\x00", b"\x81\x30\x81"] {
            let _ = decode(bytes);
        }
    }
}
