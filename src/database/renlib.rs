//! RenLib `.lib` opening trees: the binary library format of RenLib, which Yixin-Board and
//! Rapfi import too, read so that opening books kept in RenLib can seed our database, and
//! written so that our own trees can go back to RenLib.
//!
//! The layout, as RenLib 3.6 reads and writes it (`LibraryFile`, `MoveNode`, `CRenLibDoc`):
//! a 20-byte header `FF "RenLib" FF`, major and minor version, `FF` padding; then the
//! nodes in preorder, two bytes each: a move byte (0: the root, or a pass; else the low
//! nibble is x + 1, the high nibble y) and a flag byte: 0x80 a sibling follows this node's
//! subtree, 0x40 no child, 0x20 old-style comment, 0x10 marked, 0x08 comment, 0x04 start
//! position, 0x02 not a move (a board text on an empty cell), 0x01 two extension bytes follow
//! (bit 0 of the second: a board text). Then the comment, then the board text, each ending
//! with a 0 byte and padded to an even length. Version 3.4 files start with the root node;
//! 3.0 files start with the first move. A comment holds a one-line part, byte 8, then the
//! multi-line part. Bytes are in the Windows code page the file was made with.
//!
//! A node whose stones cannot be listed as moves from the empty board (a move on a taken
//! cell, a pass, a no-move text node) is read with its whole subtree but not reported: a
//! pass would give the later stones the other colour than their place in the list says.
//! All eight board symmetries keep gomoku and renju rules, so orientation is only display.

use std::borrow::Cow;
use std::collections::HashMap;
use std::fmt;

const HEADER_LEN: usize = 20;
const MAGIC: [u8; 8] = [0xFF, b'R', b'e', b'n', b'L', b'i', b'b', 0xFF];
/// Written version: 3.4, the format that starts with the root node.
const VERSION: [u8; 2] = [3, 4];
/// Longest comment or text kept; a longer one is cut (and the file read on past it).
const MAX_STRING: usize = 64 * 1024;
const CELLS: usize = 15 * 15;

const F_EXTENSION: u8 = 0x01;
const F_NO_MOVE: u8 = 0x02;
const F_COMMENT: u8 = 0x08;
const F_MARK: u8 = 0x10;
const F_OLD_COMMENT: u8 = 0x20;
const F_LEAF: u8 = 0x40;
const F_SIBLING: u8 = 0x80;
/// In the second extension byte: a board text follows.
const EXT_BOARD_TEXT: u8 = 0x01;

/// One position of the tree, as reported to the visitor.
pub struct LibNode<'a> {
    /// The moves from the empty board to this node, in order (black first), as (x, y),
    /// 0-based, x < 15, y < 15.
    pub moves: &'a [(u8, u8)],
    /// The node's board text (flag 0x01), raw bytes as stored (legacy code page), if any.
    pub text: Option<&'a [u8]>,
    /// The node's comment (flag 0x08), raw bytes, if any.
    pub comment: Option<&'a [u8]>,
    /// Whether the node is marked (flag 0x10).
    pub marked: bool,
}

/// One node given to [`write`]: (moves path, text, comment).
pub type LibEntry = (Vec<(u8, u8)>, Option<Vec<u8>>, Option<Vec<u8>>);

/// Why a file is refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LibError(pub String);

impl fmt::Display for LibError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "RenLib file: {}", self.0)
    }
}

impl std::error::Error for LibError {}

/// Returns the error, its reason formatted.
macro_rules! fail {
    ($($reason:tt)*) => {
        return Err(LibError(format!($($reason)*)))
    };
}

fn cell_index((x, y): (u8, u8)) -> usize {
    usize::from(y) * 15 + usize::from(x)
}

/// One node record as stored.
struct Record<'a> {
    /// `None` for move byte 0 (the root, or a pass).
    cell: Option<(u8, u8)>,
    flags: u8,
    text: Option<&'a [u8]>,
    /// Borrowed, except an old-style comment, which is decoded.
    comment: Option<Cow<'a, [u8]>>,
}

struct Cursor<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl<'a> Cursor<'a> {
    fn pair(&mut self, what: &str) -> Result<(u8, u8), LibError> {
        match self.bytes.get(self.pos..self.pos + 2) {
            Some(&[a, b]) => {
                self.pos += 2;
                Ok((a, b))
            }
            _ => fail!("truncated {what} at offset {}", self.pos),
        }
    }

    /// The next node record; `what` names the node the tree expects, for the error.
    fn record(&mut self, what: &str) -> Result<Record<'a>, LibError> {
        let start = self.pos;
        if start >= self.bytes.len() {
            fail!("file ends at offset {start}, where a {what} node is due");
        }
        let (byte, flags) = self.pair("node")?;
        let cell = match byte {
            0 => None,
            b if b & 0x0F == 0 || b >> 4 == 15 => {
                fail!("move byte {b:#04x} off the board at offset {start}")
            }
            b => Some(((b & 0x0F) - 1, b >> 4)),
        };
        let mut has_text = false;
        if flags & F_EXTENSION != 0 {
            has_text = self.pair("extension bytes")?.1 & EXT_BOARD_TEXT != 0;
        }
        // RenLib reads an old-style comment in preference to a new one.
        let comment = if flags & F_OLD_COMMENT != 0 {
            let (raw, last) = self.run(|b| b & 0x80 != 0)?;
            Some(Cow::Owned(decode_old(&raw[..=last])))
        } else if flags & F_COMMENT != 0 {
            Some(Cow::Borrowed(self.string()?))
        } else {
            None
        };
        let text = if has_text { Some(self.string()?) } else { None };
        Ok(Record {
            cell,
            flags,
            text,
            comment,
        })
    }

    /// A string read in byte pairs up to the first byte that `stop` accepts: the rest of the
    /// file from the string's start and that byte's index. The pair holding it is consumed.
    fn run(&mut self, stop: fn(u8) -> bool) -> Result<(&'a [u8], usize), LibError> {
        let rest = &self.bytes[self.pos..];
        match rest.iter().position(|&b| stop(b)) {
            Some(at) if (at / 2 + 1) * 2 <= rest.len() => {
                self.pos += (at / 2 + 1) * 2;
                Ok((rest, at))
            }
            _ => fail!("unterminated string at offset {}", self.pos),
        }
    }

    /// A comment or board text: the bytes before the 0 that ends it, at most `MAX_STRING`.
    fn string(&mut self) -> Result<&'a [u8], LibError> {
        let (raw, end) = self.run(|b| b == 0)?;
        Ok(&raw[..end.min(MAX_STRING)])
    }

    /// Reads past the descendants of a node that is not reported, counting the slots still
    /// due rather than recursing, so no file can exhaust the stack. Returns the nodes read.
    fn skip_children(&mut self) -> Result<usize, LibError> {
        let (mut due, mut read) = (1usize, 0);
        while due > 0 {
            let flags = self.record("child")?.flags;
            read += 1;
            due = due - 1 + usize::from(flags & F_LEAF == 0) + usize::from(flags & F_SIBLING != 0);
        }
        Ok(read)
    }
}

/// RenLib's first comment encoding: 7-bit text, the last byte's bit 7 set, the Swedish
/// letters stored as ASCII brackets; mapped to the Windows code page as RenLib does.
fn decode_old(raw: &[u8]) -> Vec<u8> {
    let decode = |&b: &u8| match b & 0x7F {
        b'}' => 0xE5,
        b'{' => 0xE4,
        b'|' => 0xF6,
        b']' => 0xC5,
        b'[' => 0xC4,
        b'\\' => 0xD6,
        c => c,
    };
    raw.iter().take(MAX_STRING).map(decode).collect()
}

/// Reads a whole `.lib` file, calling `visit` for every valid node except the empty root, in
/// file order. Returns the number of node records read (the root and unreported ones too).
/// Iterative: the path holds at most 225 stones, an unreported subtree is skipped by a
/// counter. A file that ends before the tree does is refused, naming the byte offset;
/// bytes after the tree are ignored, as RenLib's writer never leaves any.
pub fn read(bytes: &[u8], mut visit: impl FnMut(&LibNode)) -> Result<usize, LibError> {
    if bytes.len() < HEADER_LEN {
        fail!("{} bytes, shorter than the header", bytes.len());
    }
    if bytes[..MAGIC.len()] != MAGIC {
        fail!("no RenLib header (bytes 0-7 are not FF \"RenLib\" FF)");
    }
    let pos = HEADER_LEN;
    let mut cur = Cursor { bytes, pos };
    let first = cur.record("root")?;
    let mut count = 1;
    // A 3.4 root (move byte 0): RenLib ignores its flags, and an empty library is the root
    // alone. Its text and comment belong to the empty board, which is not reported.
    let mut node = if first.cell.is_none() {
        if cur.pos == bytes.len() {
            return Ok(count);
        }
        count += 1;
        cur.record("first move")?
    } else {
        first
    };
    let mut path: Vec<(u8, u8)> = Vec::with_capacity(CELLS);
    // For each stone of `path`: whether a sibling follows its subtree.
    let mut sibling_after: Vec<bool> = Vec::with_capacity(CELLS);
    let mut taken = [false; CELLS];
    loop {
        let has_child = node.flags & F_LEAF == 0;
        let mut has_sibling = node.flags & F_SIBLING != 0;
        let playable = node.flags & F_NO_MOVE == 0;
        if let Some(cell) = node.cell.filter(|&c| playable && !taken[cell_index(c)]) {
            taken[cell_index(cell)] = true;
            path.push(cell);
            visit(&LibNode {
                moves: &path,
                text: node.text,
                comment: node.comment.as_deref(),
                marked: node.flags & F_MARK != 0,
            });
            if has_child {
                sibling_after.push(has_sibling);
                node = cur.record("child")?;
                count += 1;
                continue;
            }
            path.pop();
            taken[cell_index(cell)] = false;
        } else if has_child {
            count += cur.skip_children()?;
        }
        // Climb to the nearest node with a sibling still to come; none left ends the tree.
        while !has_sibling {
            let Some(next) = sibling_after.pop() else {
                return Ok(count);
            };
            if let Some(cell) = path.pop() {
                taken[cell_index(cell)] = false;
            }
            has_sibling = next;
        }
        node = cur.record("sibling")?;
        count += 1;
    }
}

/// Writes a tree back as a `.lib` file (version 3.4, with a root node): `nodes` is a list
/// of (moves path, text, comment) in preorder where every node's parent path appears before
/// it. A parent left out is written without text or comment; the empty path's text and
/// comment go on the root. An entry whose path is not distinct cells on the 15x15 board is
/// left out, and so its descendants. A string is cut at its first 0 byte and at 64 KiB.
/// Children keep their order of first appearance (RenLib sorts them itself on reading).
pub fn write(nodes: &[LibEntry]) -> Vec<u8> {
    let mut tree = vec![Node::default()];
    let mut child_of: HashMap<(usize, (u8, u8)), usize> = HashMap::new();
    for (path, text, comment) in nodes {
        let mut seen = [false; CELLS];
        let legal = path.iter().all(|&(x, y)| {
            x < 15 && y < 15 && !std::mem::replace(&mut seen[cell_index((x, y))], true)
        });
        if !legal {
            continue;
        }
        let mut at = 0;
        for &cell in path {
            at = *child_of.entry((at, cell)).or_insert_with(|| {
                let child = tree.len();
                tree[at].children.push(child);
                tree.push(Node {
                    cell,
                    ..Node::default()
                });
                child
            });
        }
        let node = &mut tree[at];
        node.text = text.as_deref().or(node.text);
        node.comment = comment.as_deref().or(node.comment);
    }
    let mut out = Vec::with_capacity(HEADER_LEN + 2 * tree.len());
    out.extend_from_slice(&MAGIC);
    out.extend_from_slice(&VERSION);
    out.extend_from_slice(&[0xFF; HEADER_LEN - 10]);
    let mut stack = vec![(0, false)];
    while let Some((n, has_sibling)) = stack.pop() {
        let node = &tree[n];
        let (x, y) = node.cell;
        let flags =
            (u8::from(has_sibling) * F_SIBLING) | (u8::from(node.children.is_empty()) * F_LEAF);
        match n {
            // RenLib writes the root with no structure flags, even when it has no child.
            0 => put_node(&mut out, 0, 0, node),
            _ => put_node(&mut out, (y << 4) | (x + 1), flags, node),
        }
        let last = node.children.len().saturating_sub(1);
        let children = node.children.iter().enumerate().rev();
        stack.extend(children.map(|(i, &c)| (c, i < last)));
    }
    out
}

/// A node of the tree `write` builds first, the list only promising parents before children.
#[derive(Default)]
struct Node<'n> {
    cell: (u8, u8),
    text: Option<&'n [u8]>,
    comment: Option<&'n [u8]>,
    children: Vec<usize>,
}

fn put_node(out: &mut Vec<u8>, byte: u8, mut flags: u8, node: &Node) {
    if node.text.is_some() {
        flags |= F_EXTENSION;
    }
    if node.comment.is_some() {
        flags |= F_COMMENT;
    }
    out.extend_from_slice(&[byte, flags]);
    if node.text.is_some() {
        out.extend_from_slice(&[0, EXT_BOARD_TEXT]);
    }
    for s in [node.comment, node.text].into_iter().flatten() {
        let nul = s.iter().position(|&b| b == 0);
        let end = nul.unwrap_or(s.len()).min(MAX_STRING);
        out.extend_from_slice(&s[..end]);
        // The terminator, and a pad byte to make the whole even.
        out.extend_from_slice(&[0, 0][end % 2..]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The result, then each node read: its moves, `t=` text, `c=` comment, `*` if marked.
    fn show(bytes: &[u8]) -> String {
        let mut nodes = Vec::new();
        let result = read(bytes, |n| {
            let mut s: Vec<String> = n.moves.iter().map(|(x, y)| format!("{x},{y}")).collect();
            let text = |tag: &str, v: &[u8]| format!("{tag}={}", v.escape_ascii());
            s.extend(n.text.map(|v| text("t", v)));
            s.extend(n.comment.map(|v| text("c", v)));
            s.extend(n.marked.then(|| "*".to_string()));
            nodes.push(s.join(" "));
        });
        format!("{result:?} {}", nodes.join("; "))
    }

    fn error(bytes: &[u8]) -> String {
        read(bytes, |_| {}).unwrap_err().0
    }

    /// A header, then hand-made nodes: (move byte, flags, the bytes after them).
    fn file(nodes: &[(u8, u8, &[u8])]) -> Vec<u8> {
        let mut out = write(&[]);
        out.truncate(HEADER_LEN);
        for &(byte, flags, rest) in nodes {
            out.extend_from_slice(&[byte, flags]);
            out.extend_from_slice(rest);
        }
        out
    }

    fn mv(x: u8, y: u8) -> u8 {
        (y << 4) | (x + 1)
    }

    fn entry(path: &[(u8, u8)], text: Option<&str>, comment: Option<&str>) -> LibEntry {
        let bytes = |s: Option<&str>| s.map(|s| s.as_bytes().to_vec());
        (path.to_vec(), bytes(text), bytes(comment))
    }

    const ROOT: (u8, u8, &[u8]) = (0, 0, b"");
    /// A leaf with a sibling after it.
    const NEXT: u8 = F_LEAF | F_SIBLING;

    #[test]
    fn round_trip_keeps_branches_siblings_texts_and_comments() {
        let mut nodes = vec![
            entry(&[(7, 7)], None, Some("center")),
            entry(&[(7, 7), (8, 8)], Some("a"), None),
            entry(&[(7, 7), (8, 8), (9, 9)], Some("W12"), Some("1\x08two\r\n")),
            entry(&[(7, 7), (8, 8), (6, 6)], None, None),
            entry(&[(7, 7), (8, 6)], Some("bc"), Some("")),
            entry(&[(0, 0)], None, None),
            entry(&[(14, 14), (0, 14)], Some("L"), None),
            entry(&[(8, 8)], None, None), // its cell freed on climbing out of (7, 7)
        ];
        let bytes = write(&nodes);
        assert_eq!(bytes[..10], *b"\xFFRenLib\xFF\x03\x04");
        let mut seen = Vec::new();
        let result = read(&bytes, |n| {
            let owned = |s: Option<&[u8]>| s.map(<[u8]>::to_vec);
            seen.push((n.moves.to_vec(), owned(n.text), owned(n.comment)));
        });
        // The root, eight entries and the parent (14, 14) the list left out.
        assert_eq!(result, Ok(10));
        nodes.insert(6, entry(&[(14, 14)], None, None));
        assert_eq!(seen, nodes);
    }

    #[test]
    fn hand_made_nodes_give_marks_texts_and_comments() {
        let bytes = file(&[
            ROOT,
            (mv(7, 7), F_MARK | F_EXTENSION, b"\x00\x01ab\x00\x00"),
            (mv(8, 8), F_LEAF | F_COMMENT | F_SIBLING, b"x\x00"),
            // Extension bytes without the board-text bit: no string follows.
            (mv(1, 2), F_LEAF | F_EXTENSION, b"\x00\x00"),
        ]);
        assert_eq!(show(&bytes), "Ok(4) 7,7 t=ab *; 7,7 8,8 c=x; 7,7 1,2");
        // RenLib 3.0 files start at the first move; old-style comments end at bit 7 set.
        let bytes = file(&[
            (mv(7, 7), F_OLD_COMMENT, b"a{\xC2\x55"),
            (mv(8, 7), NEXT, b""),
            (mv(7, 8), F_LEAF, b""),
        ]);
        assert_eq!(show(&bytes), "Ok(3) 7,7 c=a\\xe4B; 7,7 8,7; 7,7 7,8");
        // An empty library is the root alone, as RenLib writes it.
        assert_eq!((write(&[]).len(), show(&write(&[]))), (22, "Ok(1) ".into()));
    }

    #[test]
    fn taken_cell_pass_and_no_move_branches_are_read_but_not_reported() {
        let bytes = file(&[
            ROOT,
            (mv(7, 7), 0, b""),
            (mv(7, 7), F_SIBLING | F_COMMENT, b"z\x00"), // taken: skipped with its subtree
            (mv(3, 3), F_SIBLING, b""),
            (mv(4, 4), F_LEAF, b""),
            (mv(5, 5), F_LEAF, b""),
            (0, F_SIBLING, b""), // a pass, with a child
            (mv(6, 6), F_LEAF, b""),
            (mv(9, 9), F_NO_MOVE | F_EXTENSION | NEXT, b"\x00\x01A\x00"),
            (mv(8, 8), F_LEAF, b""),
        ]);
        assert_eq!(show(&bytes), "Ok(10) 7,7; 7,7 8,8");
    }

    #[test]
    fn truncation_and_bad_moves_are_refused_with_their_offset() {
        let bytes = write(&[
            entry(&[(7, 7)], Some("abc"), Some("hello")),
            entry(&[(7, 7), (8, 8)], None, None),
        ]);
        // Cut right after the root, the file is an empty library; any later cut is refused.
        assert_eq!(show(&bytes[..22]), "Ok(1) ");
        for cut in 23..bytes.len() {
            assert!(error(&bytes[..cut]).contains("offset"), "{cut}");
        }
        // Node at 22, extension bytes at 24, comment at 26, text at 32, child at 36.
        for (cut, want) in [
            (29, "unterminated string at offset 26"),
            (25, "truncated extension bytes at offset 24"),
            (37, "truncated node at offset 36"),
            (36, "file ends at offset 36, where a child node is due"),
            (20, "file ends at offset 20, where a root node is due"),
        ] {
            assert_eq!(error(&bytes[..cut]), want);
        }
        for byte in [0x10u8, 0xF1, 0xF0] {
            let bytes = file(&[ROOT, (mv(7, 7), 0, b""), (byte, F_LEAF, b"")]);
            let want = format!("move byte {byte:#04x} off the board at offset 24");
            assert_eq!(error(&bytes), want);
        }
    }

    #[test]
    fn short_or_foreign_headers_are_refused() {
        let short = LibError(error(&[0xFF, b'R'])).to_string();
        assert_eq!(short, "RenLib file: 2 bytes, shorter than the header");
        let mut bytes = write(&[]);
        bytes[1] = b'r';
        assert!(error(&bytes).starts_with("no RenLib header"));
    }

    #[test]
    fn a_full_board_chain_reads_all_225_moves() {
        let cells: Vec<(u8, u8)> = (0..225u8).map(|i| (i % 15, i / 15)).collect();
        let nodes: Vec<_> = (1..=225).map(|k| entry(&cells[..k], None, None)).collect();
        let mut bytes = write(&nodes);
        let mut seen = Vec::new();
        assert_eq!(read(&bytes, |n| seen.push(n.moves.to_vec())), Ok(226));
        assert_eq!((seen.len(), &seen[224]), (225, &cells));
        // A 226th move can only be on a taken cell: read, not reported.
        let last = bytes.len() - 1;
        bytes[last] &= !F_LEAF;
        bytes.extend_from_slice(&[mv(3, 3), F_LEAF]);
        let mut reported = 0;
        assert_eq!(read(&bytes, |_| reported += 1), Ok(227));
        assert_eq!(reported, 225);
    }

    #[test]
    fn hostile_trees_neither_recurse_nor_panic() {
        let n = 100_000usize;
        let mut bytes = file(&[ROOT]);
        bytes.extend((0..n).flat_map(|i| [mv((i % 15) as u8, (i / 15 % 15) as u8), 0]));
        let end = bytes.len();
        assert_eq!(
            error(&bytes),
            format!("file ends at offset {end}, where a child node is due")
        );
        let last = bytes.len() - 1;
        bytes[last] = F_LEAF;
        let mut deepest = 0;
        let result = read(&bytes, |node| deepest = deepest.max(node.moves.len()));
        assert_eq!((result, deepest), (Ok(n + 1), 225));
        // Every node after a taken cell claims a child and a sibling: the count only grows.
        let mut bytes = file(&[ROOT, (mv(7, 7), 0, b""), (mv(7, 7), 0, b"")]);
        bytes.extend((0..n).flat_map(|_| [mv(1, 1), F_SIBLING]));
        assert!(error(&bytes).starts_with("file ends at offset"));
    }

    #[test]
    fn mutated_files_never_panic() {
        let good = write(&[
            entry(&[(7, 7)], Some("t"), Some("c1")),
            entry(&[(7, 7), (6, 6)], None, Some("cc")),
            entry(&[(7, 8)], None, None),
        ]);
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..5000 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let mut bytes = good.clone();
            let at = HEADER_LEN + (state as usize >> 8) % (bytes.len() - HEADER_LEN);
            bytes[at] = (state >> 40) as u8;
            bytes.truncate(bytes.len() - (state as usize >> 50) % 3);
            let _ = read(&bytes, |node| assert!(node.moves.len() <= 225));
        }
    }

    #[test]
    fn strings_are_cut_at_nul_and_64_kib_and_bad_paths_not_written() {
        let nodes = vec![
            entry(&[(15, 0)], Some("off"), None),
            entry(&[(1, 1), (1, 1)], None, None),
            entry(&[(2, 2)], Some("ab\0cd"), None),
            (vec![(3, 3)], None, Some(vec![b'x'; MAX_STRING + 10])),
            entry(&[], None, Some("on the root")),
        ];
        let mut long = 0;
        let mut texts = Vec::new();
        let result = read(&write(&nodes), |n| {
            texts.extend(n.text.map(<[u8]>::to_vec));
            long = long.max(n.comment.map_or(0, <[u8]>::len));
        });
        assert_eq!(
            (result, texts, long),
            (Ok(3), vec![b"ab".to_vec()], MAX_STRING)
        );
        // Reading cuts too, and goes on past the rest of the string.
        let mut body = vec![b'y'; MAX_STRING + 101];
        body.push(0);
        let bytes = file(&[
            ROOT,
            (mv(7, 7), F_COMMENT | NEXT, &body),
            (mv(8, 8), F_LEAF, b""),
        ]);
        let mut seen = Vec::new();
        let result = read(&bytes, |n| {
            seen.push((n.moves.len(), n.comment.map(<[u8]>::len)))
        });
        assert_eq!(
            (result, seen),
            (Ok(3), vec![(1, Some(MAX_STRING)), (1, None)])
        );
    }
}
