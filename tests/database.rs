//! Yixin-Board's database commands in a protocol session, as Yixin-Board sends them (its
//! `main.c`: positions as `x,y` lines then `done`, the comment's first move on the quote's
//! line), answered as Rapfi answers them; the database file on disk; the search reading the
//! database and writing what it finds.

use rensa::database::record::LABEL_WIN;
use rensa::database::{renlib, Database, Position};
use rensa::engine::Engine;
use rensa::geometry::Pos;
use rensa::protocol::{Flow, Session};
use rensa::rules::Rule;
use std::path::PathBuf;

struct S {
    s: Session<Vec<u8>>,
    seen: usize,
}

impl S {
    fn new() -> S {
        let mut s = S {
            s: Session::new(Engine::new(), Vec::new()),
            seen: 0,
        };
        s.send("start 15");
        assert_eq!(s.replies(), ["OK"]);
        s
    }

    fn send(&mut self, text: &str) {
        for l in text.lines() {
            assert_eq!(self.s.handle_line(l), Flow::Continue, "{l}");
        }
    }

    /// The reply lines since the last call.
    fn replies(&mut self) -> Vec<String> {
        let all = String::from_utf8(self.s.output().clone()).unwrap();
        let lines: Vec<String> = all.lines().map(str::to_string).collect();
        let new = lines[self.seen..].to_vec();
        self.seen = lines.len();
        new
    }

    fn db(&mut self, path: &std::path::Path) {
        self.send(&format!("yxsetdatabase\n{}", path.display()));
        let r = self.replies();
        assert!(r.iter().all(|l| l.starts_with("MESSAGE")), "{r:?}");
    }

    /// A command on a position given as moves, as Yixin-Board sends it.
    fn at(&mut self, cmd: &str, moves: &[(i64, i64)]) -> Vec<String> {
        let mut text = format!("{cmd}\n");
        for (x, y) in moves {
            text.push_str(&format!("{x},{y}\n"));
        }
        text.push_str("done");
        self.send(&text);
        self.replies()
    }
}

fn temp(name: &str) -> PathBuf {
    let p = std::env::temp_dir().join(format!("rensa-dbt-{}-{name}", std::process::id()));
    let _ = std::fs::remove_file(&p);
    p
}

#[test]
fn records_are_edited_and_found_under_every_symmetry() {
    let path = temp("edit.db");
    let mut s = S::new();
    s.db(&path);
    // dbedittag W, as Rapfi answers it: the record back
    let r = s.at("yxedittvddatabase 15 87 123 20", &[(7, 7), (8, 8)]);
    assert_eq!(r, ["MESSAGE DATABASE ONE 119 123 20 3 w*"]);
    let one = |s: &mut S, m: &[(i64, i64)]| s.at("yxquerydatabaseone", m);
    assert_eq!(
        one(&mut s, &[(7, 7), (6, 6)]),
        ["MESSAGE DATABASE ONE 119 123 20 3 w*"]
    );
    // the side to move is part of the position
    assert_eq!(
        one(&mut s, &[(8, 8), (7, 7)]),
        ["MESSAGE DATABASE ONE 0 0 0 0"]
    );
    // value and depth alone (dbeditval, dbeditdep) keep the label
    s.at("yxedittvddatabase 2 -1 -40 0", &[(7, 7), (8, 8)]);
    let r = s.at("yxedittvddatabase 4 -1 0 9", &[(7, 7), (8, 8)]);
    assert_eq!(r, ["MESSAGE DATABASE ONE 119 -40 9 3 w*"]);
    // the moves from 7,7: the four symmetric cells show the record
    let r = s.at("yxquerydatabaseall", &[(7, 7)]);
    assert_eq!(
        r,
        [
            "MESSAGE DATABASE REFRESH",
            "MESSAGE DATABASE 6 6 30506 -40 9 3 0",
            "MESSAGE DATABASE 8 6 30506 -40 9 3 0",
            "MESSAGE DATABASE 6 8 30506 -40 9 3 0",
            "MESSAGE DATABASE 8 8 30506 -40 9 3 0",
            "MESSAGE DATABASE DONE",
        ]
    );
    s.at("yxdeletedatabaseone", &[(7, 7), (6, 8)]);
    assert_eq!(
        one(&mut s, &[(7, 7), (8, 8)]),
        ["MESSAGE DATABASE ONE 0 0 0 0"]
    );
    let _ = std::fs::remove_file(&path);
}

#[test]
fn comments_come_as_yixin_board_sends_them() {
    let path = temp("text.db");
    let mut s = S::new();
    s.db(&path);
    // no newline after the closing quote: the first move follows on its line; the
    // comment runs over two lines, with an escaped quote and backslash
    s.send("yxedittextdatabase \"first \\\"line\\\"\nsecond \\\\ end\"7,7\n8,8\ndone");
    assert_eq!(s.replies(), Vec::<String>::new());
    let r = s.at("yxquerydatabasetext", &[(7, 7), (6, 6)]);
    assert_eq!(
        r,
        [
            "MESSAGE DATABASE TEXT \"first \\\"line\\\"",
            "second \\\\ end\""
        ]
    );
    // a blank line in a comment is kept
    s.send("yxedittextdatabase \"a\n\nb\"3,3\ndone");
    let r = s.at("yxquerydatabasetext", &[(3, 3)]);
    assert_eq!(r, ["MESSAGE DATABASE TEXT \"a", "", "b\""]);
    // an empty position: `done` right after the quote
    s.send("yxedittextdatabase \"root\"done");
    assert_eq!(
        s.at("yxquerydatabasetext", &[]),
        ["MESSAGE DATABASE TEXT \"root\""]
    );
    // a board label on a move of a symmetric position shows on each copy of its cell
    s.send("yxeditlabeldatabase 8,8 AB\n7,7\ndone");
    let r = s.at("yxquerydatabaseallt", &[(7, 7)]);
    let labelled: Vec<&String> = r.iter().filter(|l| l.ends_with(" AB")).collect();
    assert_eq!(labelled.len(), 4, "{r:?}");
    assert_eq!(r.last().unwrap(), "MESSAGE DATABASE TEXT \"\"");
    let _ = std::fs::remove_file(&path);
}

#[test]
fn a_saved_database_reopens_and_a_damaged_one_is_refused_untouched() {
    let path = temp("save.db");
    let mut s = S::new();
    s.db(&path);
    s.at("yxedittvddatabase 15 76 -300 12", &[(7, 7), (7, 8), (9, 9)]);
    s.send("yxsavedatabase");
    let r = s.replies();
    assert_eq!(
        r[0],
        format!("MESSAGE DATABASE SAVE START {}", path.display())
    );
    assert_eq!(r[1], "MESSAGE DATABASE SAVE DONE");
    let db = Database::open(&path, 1 << 20).unwrap();
    assert_eq!(db.len(), 1);

    let mut t = S::new();
    t.db(&path);
    let r = t.at("yxquerydatabaseone", &[(7, 7), (7, 6), (5, 5)]);
    assert_eq!(r, ["MESSAGE DATABASE ONE 108 -300 12 3 l*"]);
    let bad = temp("bad.db");
    std::fs::write(&bad, b"not a database at all").unwrap();
    t.send(&format!("yxsetdatabase\n{}", bad.display()));
    let r = t.replies();
    assert!(
        r.last().unwrap().starts_with("ERROR database not opened"),
        "{r:?}"
    );
    assert_eq!(std::fs::read(&bad).unwrap(), b"not a database at all");
    // the database open before stays open
    let r = t.at("yxquerydatabaseone", &[(7, 7), (7, 6), (5, 5)]);
    assert_eq!(r, ["MESSAGE DATABASE ONE 108 -300 12 3 l*"]);
    for p in [&path, &bad] {
        let _ = std::fs::remove_file(p);
    }
}

#[test]
fn read_only_mode_and_a_missing_database_change_nothing() {
    let mut s = S::new();
    let r = s.at("yxedittvddatabase 1 87 0 0", &[(7, 7)]);
    assert!(r[0].starts_with("ERROR no database"), "{r:?}");
    // queries answer empty
    assert_eq!(
        s.at("yxquerydatabaseone", &[(7, 7)]),
        ["MESSAGE DATABASE ONE 0 0 0 0"]
    );
    let path = temp("ro.db");
    s.db(&path);
    s.send("info database_readonly 1");
    let r = s.at("yxedittvddatabase 1 87 0 0", &[(7, 7)]);
    assert_eq!(r, ["MESSAGE database is read-only: not changed"]);
    s.at("yxquerydatabaseall", &[(7, 7), (8, 8)]);
    s.send("info database_readonly 0");
    assert_eq!(
        s.at("yxquerydatabaseone", &[(7, 7)]),
        ["MESSAGE DATABASE ONE 0 0 0 0"]
    );
    // the path the user went is kept (Rapfi's rule): an empty record
    s.at("yxquerydatabaseall", &[(7, 7), (8, 8)]);
    assert_eq!(
        s.at("yxquerydatabaseone", &[(7, 7), (8, 8)]),
        ["MESSAGE DATABASE ONE -1 0 0 0"]
    );
    let _ = std::fs::remove_file(&path);
}

#[test]
fn delete_all_takes_the_branch_below_by_filter() {
    let path = temp("del.db");
    let mut s = S::new();
    s.db(&path);
    s.at("yxedittvddatabase 1 87 0 0", &[(7, 7), (8, 8)]);
    s.at("yxedittvddatabase 2 -1 10 0", &[(7, 7), (8, 7)]);
    s.at("yxedittvddatabase 2 -1 10 0", &[(7, 7), (8, 7), (9, 9)]);
    let r = s.at("yxdeletedatabaseall nonwl", &[(7, 7)]);
    assert!(r[0].starts_with("MESSAGE Done deleting 2 records"), "{r:?}");
    // then the moves from the position, as Rapfi refreshes them
    assert_eq!(r[1], "MESSAGE DATABASE REFRESH");
    assert_eq!(r.len(), 7, "{r:?}");
    let r = s.at("yxdeletedatabaseall", &[(7, 7)]);
    assert!(r[0].starts_with("MESSAGE Done deleting 1 records"), "{r:?}");
    let r = s.at("yxdeletedatabaseall bogus", &[(7, 7)]);
    assert!(r[0].starts_with("ERROR"), "{r:?}");
    let _ = std::fs::remove_file(&path);
}

#[test]
fn merge_split_text_and_renlib_files() {
    let (a, b, split, csv, lib) = (
        temp("a.db"),
        temp("b.db"),
        temp("split.db"),
        temp("out.csv"),
        temp("x.lib"),
    );
    let mut other = Database::open(&b, 1 << 20).unwrap();
    let p =
        Position::from_moves(Rule::Freestyle, 15, 15, &[Pos::new(7, 7), Pos::new(7, 8)]).unwrap();
    let mut r = rensa::database::Record::with_label(LABEL_WIN);
    r.value = -29990;
    other.insert(p.key(), r);
    other.save().unwrap();

    let mut s = S::new();
    s.db(&a);
    s.send(&format!("yxdbmerge\n{}", b.display()));
    let r = s.replies();
    assert!(
        r[0].starts_with("MESSAGE Merged 1 out of 1 records"),
        "{r:?}"
    );
    assert_eq!(
        s.at("yxquerydatabaseone", &[(7, 7), (8, 7)])[0],
        "MESSAGE DATABASE ONE 119 -29990 0 0 w11"
    );
    // split the branch of the board's position
    s.send("yxboard\n7,7,1\ndone");
    s.send(&format!("yxdbsplit\n{}", split.display()));
    let r = s.replies();
    assert_eq!(
        r[0],
        format!("MESSAGE DATABASE SAVE START {}", split.display())
    );
    assert_eq!(r[1], "MESSAGE DATABASE SAVE DONE");
    assert!(r[2].starts_with("MESSAGE Wrote 1 records"), "{r:?}");
    assert_eq!(Database::open(&split, 1 << 20).unwrap().len(), 1);
    s.send(&format!("yxdbtotxtall\n{}", csv.display()));
    s.replies();
    let text = std::fs::read_to_string(&csv).unwrap();
    assert_eq!(
        text,
        "index,key,label,value,depth,bound,text\n0,f-15-15-h8-g8-b,w,-29990,0,none,\"\"\n"
    );
    // a RenLib tree of h8 (with a comment) and two answers, into the renju rule's records
    let tree = renlib::write(&[
        (vec![(7, 7)], None, Some(b"centre".to_vec())),
        (vec![(7, 7), (8, 8)], None, None),
        (vec![(7, 7), (8, 7)], Some(b"W".to_vec()), None),
    ]);
    std::fs::write(&lib, tree).unwrap();
    s.send("info rule 4");
    s.send(&format!("yxlibtodb\n{}", lib.display()));
    let r = s.replies();
    assert!(r[0].starts_with("MESSAGE Imported 3 records"), "{r:?}");
    assert_eq!(
        s.at("yxquerydatabasetext", &[(7, 7)]),
        ["MESSAGE DATABASE TEXT \"centre\""]
    );
    assert_eq!(
        s.at("yxquerydatabaseone", &[(7, 7), (7, 8)])[0],
        "MESSAGE DATABASE ONE 119 0 0 0 w*"
    );
    for p in [&a, &b, &split, &csv, &lib] {
        let _ = std::fs::remove_file(p);
    }
}

#[test]
fn the_search_plays_the_books_won_move_and_writes_what_it_finds() {
    let path = temp("search.db");
    let mut s = S::new();
    s.db(&path);
    s.send("info max_depth 6\ninfo timeout_turn 10000");
    // the book says white's 3,3 after black's 7,7 wins for white: played without a search
    s.at("yxedittvddatabase 1 87 0 0", &[(7, 7), (3, 3)]);
    s.send("board\n7,7,2\ndone");
    assert_eq!(s.replies().last().unwrap(), "3,3");
    // a blocked move is never played: the search goes elsewhere
    s.at("yxdeletedatabaseone", &[(7, 7), (3, 3)]);
    s.send("board\n7,7,2\ndone");
    let first = s.replies().last().unwrap().clone();
    let (x, y) = first.split_once(',').unwrap();
    let (x, y): (i64, i64) = (x.parse().unwrap(), y.parse().unwrap());
    // the search wrote the position and its move's
    let r = s.at("yxquerydatabaseone", &[(7, 7)]);
    let f: Vec<&str> = r[0].split(' ').collect();
    assert_eq!((f[3], f[5], f[6]), ("-1", "6", "3"), "{r:?}");
    let r = s.at("yxquerydatabaseone", &[(7, 7), (x, y)]);
    assert_ne!(r[0], "MESSAGE DATABASE ONE 0 0 0 0");
    s.at("yxedittvddatabase 1 88 0 0", &[(7, 7), (x, y)]);
    s.send("board\n7,7,2\ndone");
    let again = s.replies().last().unwrap().clone();
    assert_ne!(again, first);
    let _ = std::fs::remove_file(&path);
}

#[test]
fn a_read_only_book_is_played_as_an_opening_book() {
    use rensa::database::record::{BOUND_EXACT, LABEL_NONE};
    let path = temp("opening.db");
    let mut db = Database::open(&path, 1 << 20).unwrap();
    let at = |moves: &[(usize, usize)]| {
        let v: Vec<Pos> = moves.iter().map(|&(x, y)| Pos::new(x, y)).collect();
        Position::from_moves(Rule::Freestyle, 15, 15, &v).unwrap()
    };
    let valued = |v: i16, depth: i32| {
        let mut r = rensa::database::Record::with_label(LABEL_NONE);
        r.value = v;
        r.set_depth_bound(depth, BOUND_EXACT);
        r
    };
    // white to move after h8: worth 20 to white, by g7 (worth -20 to black after it); h10
    // leaves black 50
    db.insert(at(&[(7, 7)]).key(), valued(20, 10));
    db.insert(at(&[(7, 7), (6, 6)]).key(), valued(-20, 9));
    db.insert(at(&[(7, 7), (7, 9)]).key(), valued(50, 9));
    db.save().unwrap();
    let mut s = S::new();
    s.send("info max_depth 4");
    s.db(&path);
    s.send("info database_readonly 1\nboard\n7,7,2\ndone");
    assert_eq!(s.replies().last().unwrap(), "6,6");
    // a book being made searches on (and so grows): the search's own move
    s.send("info database_readonly 0\nboard\n7,7,2\ndone");
    let r = s.replies();
    assert!(r.iter().any(|l| l.starts_with("MESSAGE depth 4")), "{r:?}");
    let _ = std::fs::remove_file(&path);
}

#[test]
fn a_book_label_never_overrides_a_five_to_stop() {
    let path = temp("five.db");
    let mut s = S::new();
    s.db(&path);
    s.send("info max_depth 4");
    // black h8 i8 j8 k8 against white's g8, white to move: k8's five point l8 must be
    // blocked, whatever the book says of white's 3,3
    let moves = [(7, 7), (6, 7), (8, 7), (0, 0), (9, 7), (14, 0), (10, 7)];
    let mut with = moves.to_vec();
    with.push((3, 3));
    s.at("yxedittvddatabase 1 87 0 0", &with);
    s.send("board\n7,7,2\n6,7,1\n8,7,2\n0,0,1\n9,7,2\n14,0,1\n10,7,2\ndone");
    assert_eq!(s.replies().last().unwrap(), "11,7");
    let _ = std::fs::remove_file(&path);
}

#[test]
fn use_database_off_and_on_keeps_the_database_set() {
    let path = temp("use.db");
    let mut s = S::new();
    s.db(&path);
    s.at("yxedittvddatabase 1 68 0 0", &[(7, 7)]);
    // off: saved and closed, as Rapfi tells it
    s.send("info usedatabase 0");
    assert_eq!(
        s.replies(),
        [
            format!("MESSAGE DATABASE SAVE START {}", path.display()),
            "MESSAGE DATABASE SAVE DONE".to_string()
        ]
    );
    assert_eq!(
        s.at("yxquerydatabaseone", &[(7, 7)]),
        ["MESSAGE DATABASE ONE 0 0 0 0"]
    );
    // on again: the same file, not the default one
    s.send("info usedatabase 1");
    assert_eq!(
        s.replies(),
        [
            format!("MESSAGE DATABASE LOAD START {}", path.display()),
            "MESSAGE DATABASE LOAD DONE".to_string()
        ]
    );
    assert_eq!(
        s.at("yxquerydatabaseone", &[(7, 7)]),
        ["MESSAGE DATABASE ONE 100 0 0 3 d"]
    );
    let _ = std::fs::remove_file(&path);
}
