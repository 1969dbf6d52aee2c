//! Yixin's database file, as Yixin and Rapfi read and write it: a count, then records of a
//! key (rule, width, height, black's stones, white's stones) and a body (label, value,
//! depth and bound, text), little-endian; plain, or as one LZ4 frame (Rapfi's default).
//! A record with a 0×0 board carries the file's metadata (`charset="UTF-8"`); without it the
//! texts are in the author's Windows code page.

use std::io::{Read, Write};
use std::path::Path;

use super::key::{rule_of_code, Key};
use super::record::Record;

const LZ4_MAGIC: [u8; 4] = [0x04, 0x22, 0x4D, 0x18];
const UTF8_META: &str = "charset=\"UTF-8\"";

/// How a file was stored.
#[derive(Debug, Default)]
pub struct Stored {
    pub compressed: bool,
    /// Texts were in a legacy code page and have been converted (saving rewrites them).
    pub converted: bool,
}

/// Reads a database file's bytes, handing each record to `sink` as it is read (so that
/// loading holds the file and the records, nothing more). `limit` bounds the bytes a
/// compressed file may expand to; `sink` may refuse a record (`Err`: loading stops).
pub fn parse(
    bytes: &[u8],
    limit: usize,
    sink: &mut dyn FnMut(Key, Record) -> Result<(), String>,
) -> Result<Stored, String> {
    let compressed = bytes.starts_with(&LZ4_MAGIC);
    let plain;
    let data: &[u8] = if compressed {
        let mut out = Vec::new();
        lz4_flex::frame::FrameDecoder::new(bytes)
            .take(limit as u64 + 1)
            .read_to_end(&mut out)
            .map_err(|e| format!("damaged LZ4 frame: {e}"))?;
        if out.len() > limit {
            return Err(format!(
                "expands to more than {} MiB, over the memory allowed",
                limit >> 20
            ));
        }
        plain = out;
        &plain
    } else {
        bytes
    };
    let converted = parse_plain(data, sink)?;
    Ok(Stored {
        compressed,
        converted,
    })
}

/// A little-endian reader that names the offset of a truncated field.
struct Cursor<'a> {
    data: &'a [u8],
    at: usize,
}

impl<'a> Cursor<'a> {
    fn take(&mut self, n: usize, what: &str) -> Result<&'a [u8], String> {
        let end = self.at.checked_add(n).filter(|&e| e <= self.data.len());
        let Some(end) = end else {
            return Err(format!("truncated at byte {} (reading {what})", self.at));
        };
        let s = &self.data[self.at..end];
        self.at = end;
        Ok(s)
    }

    fn u16(&mut self, what: &str) -> Result<u16, String> {
        let b = self.take(2, what)?;
        Ok(u16::from_le_bytes([b[0], b[1]]))
    }
}

/// The records of an uncompressed file; `true` when its texts were converted from a legacy
/// code page. The metadata record, when there is one, comes first (Yixin and Rapfi write
/// it first), so each record's text is read as it comes.
fn parse_plain(
    data: &[u8],
    sink: &mut dyn FnMut(Key, Record) -> Result<(), String>,
) -> Result<bool, String> {
    if data.is_empty() {
        return Ok(false);
    }
    let mut c = Cursor { data, at: 0 };
    let n = c.take(4, "the record count")?;
    let count = u32::from_le_bytes([n[0], n[1], n[2], n[3]]);
    let mut utf8 = false;
    let mut converted = false;
    for i in 0..count {
        let what = |s: &str| format!("{s} of record {i}");
        let key_len = c.u16(&what("the key length"))? as usize;
        if key_len == 0 {
            continue;
        }
        let key = c.take(key_len, &what("the key"))?;
        let body_len = c.u16(&what("the record length"))? as usize;
        let body = c.take(body_len, &what("the record"))?;
        if key_len < 3 || (key_len - 3) % 2 != 0 {
            return Err(format!("record {i}: a key of {key_len} bytes"));
        }
        if key[1] == 0 && key[2] == 0 {
            // the metadata record
            if body.len() > 5 && body[5..].starts_with(UTF8_META.as_bytes()) {
                utf8 = true;
            }
            continue;
        }
        let k = parse_key(key).map_err(|e| format!("record {i}: {e}"))?;
        let (r, conv) = parse_body(body, utf8);
        converted |= conv;
        sink(k, r)?;
    }
    if c.at != data.len() {
        return Err(format!(
            "{} bytes after the last of {count} records: not a Yixin database",
            data.len() - c.at
        ));
    }
    Ok(converted)
}

fn parse_key(key: &[u8]) -> Result<Key, String> {
    let (rule, w, h) = (key[0], key[1], key[2]);
    if rule_of_code(rule).is_none() {
        return Err(format!("unknown rule {rule}"));
    }
    if !(5..=32).contains(&w) || !(5..=32).contains(&h) {
        return Err(format!("board size {w}x{h}"));
    }
    let n = (key.len() - 3) / 2;
    if n > w as usize * h as usize + 1 {
        return Err(format!("{n} stones on a {w}x{h} board"));
    }
    let (nb, nw) = (n.div_ceil(2), n / 2);
    let mut seen = vec![false; w as usize * h as usize];
    let mut stones = [Vec::new(), Vec::new()];
    for i in 0..n {
        let (x, y) = (key[3 + 2 * i], key[4 + 2 * i]);
        if x == 0xFF && y == 0xFF {
            continue; // a pass
        }
        if x >= w || y >= h {
            return Err(format!("stone {x},{y} off the {w}x{h} board"));
        }
        let cell = y as usize * w as usize + x as usize;
        if std::mem::replace(&mut seen[cell], true) {
            return Err(format!("two stones on {x},{y}"));
        }
        stones[usize::from(i >= nb)].push((x, y));
    }
    let white_to_move = nb != nw;
    Ok(Key::canonical(rule, w, h, &stones[0], &stones[1], white_to_move).0)
}

fn parse_body(body: &[u8], utf8: bool) -> (Record, bool) {
    let mut r = Record::default();
    if !body.is_empty() {
        r.label = body[0] as i8;
    }
    if body.len() > 2 {
        r.value = i16::from_le_bytes([body[1], body[2]]);
    }
    if body.len() > 4 {
        r.depth_bound = i16::from_le_bytes([body[3], body[4]]);
    }
    let mut converted = false;
    if body.len() > 5 {
        // stray NULs came from an early writer's bug
        let text: Vec<u8> = body[5..].iter().copied().filter(|&b| b != 0).collect();
        r.text = match String::from_utf8(text) {
            Ok(s) => s,
            Err(e) if !utf8 => {
                converted = true;
                encoding_rs::GBK.decode(e.as_bytes()).0.into_owned()
            }
            Err(e) => String::from_utf8_lossy(e.as_bytes()).into_owned(),
        };
    }
    (r, converted || !utf8)
}

/// The file's bytes for these records (already in key order), plain or compressed.
pub fn serialise<'a>(
    records: impl ExactSizeIterator<Item = (&'a Key, &'a Record)>,
    compressed: bool,
) -> Vec<u8> {
    let mut out = Vec::with_capacity(64 + records.len() * 32);
    out.extend_from_slice(&(records.len() as u32 + 1).to_le_bytes());
    // the metadata record: a 0x0 board
    out.extend_from_slice(&3u16.to_le_bytes());
    out.extend_from_slice(&[0, 0, 0]);
    out.extend_from_slice(&((5 + UTF8_META.len()) as u16).to_le_bytes());
    out.extend_from_slice(&[0; 5]);
    out.extend_from_slice(UTF8_META.as_bytes());
    for (k, r) in records {
        write_key(&mut out, k);
        if r.is_null() {
            out.extend_from_slice(&0u16.to_le_bytes());
            continue;
        }
        let mut text = r.text.as_str();
        while text.len() > u16::MAX as usize - 5 {
            // a record's length is 16 bits: cut a runaway comment at a character boundary
            let mut end = u16::MAX as usize - 5;
            while !text.is_char_boundary(end) {
                end -= 1;
            }
            text = &text[..end];
        }
        out.extend_from_slice(&((5 + text.len()) as u16).to_le_bytes());
        out.push(r.label as u8);
        out.extend_from_slice(&r.value.to_le_bytes());
        out.extend_from_slice(&r.depth_bound.to_le_bytes());
        out.extend_from_slice(text.as_bytes());
    }
    if !compressed {
        return out;
    }
    let mut enc = lz4_flex::frame::FrameEncoder::new(Vec::new());
    enc.write_all(&out).expect("writing to memory");
    enc.finish().expect("writing to memory")
}

/// Black's stones, then white's; a pass (0xFF, 0xFF) after the side that passed, so that the
/// counts give the side to move.
fn write_key(out: &mut Vec<u8>, k: &Key) {
    let pass = k.passed();
    let stones = k.stone_count() + usize::from(pass);
    out.extend_from_slice(&((3 + 2 * stones) as u16).to_le_bytes());
    out.extend_from_slice(&[k.rule, k.width, k.height]);
    let normal_white = k.stone_count() % 2 == 1;
    for &(x, y) in k.black() {
        out.extend_from_slice(&[x, y]);
    }
    if pass && !normal_white {
        out.extend_from_slice(&[0xFF, 0xFF]);
    }
    for &(x, y) in k.white() {
        out.extend_from_slice(&[x, y]);
    }
    if pass && normal_white {
        out.extend_from_slice(&[0xFF, 0xFF]);
    }
}

/// Writes `bytes` to `path` so that a crash leaves either the old file or the new one: a
/// temporary file beside it, flushed, then renamed over it.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".rensa-tmp");
    let tmp = std::path::PathBuf::from(tmp);
    let result = (|| {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
        drop(f);
        std::fs::rename(&tmp, path)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::database::record::{BOUND_EXACT, LABEL_NONE, LABEL_WIN};

    fn sample() -> Vec<(Key, Record)> {
        let mut r = Record::with_label(LABEL_WIN);
        r.value = -123;
        r.set_depth_bound(20, BOUND_EXACT);
        r.set_comment("中文 comment");
        let a = Key::canonical(0, 15, 15, &[(7, 7)], &[(8, 8)], false).0;
        // white to move with equal stones: black passed
        let b = Key::canonical(2, 15, 15, &[(7, 7)], &[(6, 6)], true).0;
        let c = Key::canonical(0, 20, 15, &[(1, 2), (3, 4)], &[(5, 6)], false).0;
        let mut v = vec![
            (a, r),
            (b, Record::with_label(LABEL_NONE)),
            (c, Record::default()),
        ];
        v.sort_by(|x, y| x.0.cmp(&y.0));
        v
    }

    /// The records and how they were stored.
    fn read(bytes: &[u8], limit: usize) -> Result<(Vec<(Key, Record)>, Stored), String> {
        let mut v = Vec::new();
        let stored = parse(bytes, limit, &mut |k, r| {
            v.push((k, r));
            Ok(())
        })?;
        Ok((v, stored))
    }

    #[test]
    fn records_survive_a_round_trip_plain_and_compressed() {
        let v = sample();
        for compressed in [false, true] {
            let bytes = serialise(v.iter().map(|(k, r)| (k, r)), compressed);
            assert_eq!(bytes.starts_with(&LZ4_MAGIC), compressed);
            let (back, stored) = read(&bytes, 1 << 20).unwrap();
            assert_eq!(stored.compressed, compressed);
            assert!(!stored.converted);
            assert_eq!(back, v);
        }
    }

    #[test]
    fn a_plain_file_is_laid_out_as_yixin_lays_it_out() {
        let k = Key::canonical(0, 15, 15, &[(7, 7)], &[(8, 6)], false).0;
        let mut r = Record::with_label(LABEL_WIN);
        r.value = 123;
        r.set_depth_bound(20, BOUND_EXACT);
        let bytes = serialise([(&k, &r)].into_iter(), false);
        let mut want = vec![2, 0, 0, 0, 3, 0, 0, 0, 0, 20, 0, 0, 0, 0, 0, 0];
        want.extend_from_slice(UTF8_META.as_bytes());
        // key: 7 bytes, rule 0, 15x15, black (7,7), white (6,6): the smallest copy of (8,6)
        want.extend_from_slice(&[7, 0, 0, 15, 15, 7, 7, 6, 6]);
        want.extend_from_slice(&[5, 0, b'w', 123, 0, 83, 0]);
        assert_eq!(bytes, want);
    }

    #[test]
    fn damaged_files_are_refused_with_a_reason() {
        let v = sample();
        let bytes = serialise(v.iter().map(|(k, r)| (k, r)), false);
        let cut = read(&bytes[..bytes.len() - 3], 1 << 20).unwrap_err();
        assert!(cut.contains("truncated at byte"), "{cut}");
        let mut extra = bytes.clone();
        extra.extend_from_slice(b"junk");
        assert!(read(&extra, 1 << 20).unwrap_err().contains("not a Yixin"));
        let mut bad_rule = bytes.clone();
        // the first real record's rule byte
        let at = 4 + 2 + 3 + 2 + 5 + UTF8_META.len() + 2;
        bad_rule[at] = 9;
        assert!(read(&bad_rule, 1 << 20)
            .unwrap_err()
            .contains("unknown rule 9"));
        assert!(read(b"PK\x03\x04 a zip file", 1 << 20).is_err());
        let big = serialise(v.iter().map(|(k, r)| (k, r)), true);
        assert!(read(&big, 16).unwrap_err().contains("memory"));
        // an empty file is an empty database
        assert!(read(&[], 16).unwrap().0.is_empty());
    }

    #[test]
    fn legacy_texts_are_read_in_their_code_page() {
        // no metadata record: a comment in GBK
        let (gbk, _, _) = encoding_rs::GBK.encode("开局");
        let mut bytes = vec![1, 0, 0, 0, 5, 0, 0, 15, 15, 7, 7];
        bytes.extend_from_slice(&((5 + gbk.len()) as u16).to_le_bytes());
        bytes.extend_from_slice(&[0xFF, 0, 0, 0, 0]);
        bytes.extend_from_slice(&gbk);
        let (v, stored) = read(&bytes, 1 << 20).unwrap();
        assert!(stored.converted);
        assert_eq!(v[0].1.text, "开局");
        assert!(v[0].0.white_to_move);
    }
}
