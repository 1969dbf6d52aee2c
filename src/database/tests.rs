//! The database as a whole: files on disk, symmetric lookups, merge, split, delete and the
//! text export.

use super::ops::{self, delete_filter, Del};
use super::record::*;
use super::*;

fn pos(moves: &str) -> Position {
    let v: Vec<Pos> = moves
        .split_whitespace()
        .map(|m| {
            let (x, y) = m.split_once(',').unwrap();
            Pos::new(x.parse().unwrap(), y.parse().unwrap())
        })
        .collect();
    Position::from_moves(Rule::Freestyle, 15, 15, &v).unwrap()
}

fn valued(v: i16, depth: i32) -> Record {
    let mut r = Record::with_label(LABEL_NONE);
    r.value = v;
    r.set_depth_bound(depth, BOUND_EXACT);
    r
}

fn temp(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("rensa-db-{}-{name}", std::process::id()));
    let _ = std::fs::remove_file(&dir);
    dir
}

#[test]
fn a_position_is_found_under_every_symmetry_and_with_its_side_to_move() {
    let mut db = Database::in_memory(1 << 20);
    assert!(db.set(pos("7,7 8,8").key(), &valued(50, 12), MASK_ALL));
    // Rapfi's example: 7,7 8,8 and 7,7 6,6 are one position, 8,8 7,7 another
    assert_eq!(db.get_position(&pos("7,7 6,6")).unwrap().value, 50);
    assert_eq!(db.get_position(&pos("7,7 8,7")), None);
    assert_eq!(db.get_position(&pos("8,8 7,7")), None);
    let mut passed = pos("7,7 8,8");
    passed.white_to_move = true;
    assert_eq!(db.get_position(&passed), None);
    // children come back in the orientation asked
    let kids = db.children(&pos("7,7"));
    let cells: Vec<_> = kids.iter().map(|(m, _)| (m.x(), m.y())).collect();
    assert_eq!(cells, [(6, 6), (8, 6), (6, 8), (8, 8)]);
}

#[test]
fn a_saved_database_opens_with_the_same_records_and_a_damaged_one_is_left_alone() {
    let path = temp("round.db");
    let mut db = Database::open(&path, 1 << 20).unwrap();
    assert!(db.is_empty());
    let mut r = valued(-20, 7);
    r.set_comment("a note");
    db.set(pos("7,7 8,8 9,9").key(), &r, MASK_ALL);
    db.set(
        pos("7,7").key(),
        &Record::with_label(LABEL_FORCED),
        MASK_ALL,
    );
    db.save().unwrap();
    let back = Database::open(&path, 1 << 20).unwrap();
    assert_eq!(back.len(), 2);
    assert_eq!(back.get_position(&pos("7,7 6,6 5,5")), Some(&r));
    assert!(!back.is_dirty());

    let good = std::fs::read(&path).unwrap();
    std::fs::write(&path, &good[..good.len() - 4]).unwrap();
    let err = Database::open(&path, 1 << 20).unwrap_err();
    assert!(err.contains("truncated"), "{err}");
    // refused, not rewritten
    assert_eq!(std::fs::read(&path).unwrap(), &good[..good.len() - 4]);
    // too big for the memory allowed
    std::fs::write(&path, &good).unwrap();
    assert!(Database::open(&path, 100).unwrap_err().contains("memory"));
    let _ = std::fs::remove_file(&path);
}

#[test]
fn memory_bounds_the_records() {
    let mut db = Database::in_memory(500);
    let mut n = 0;
    // eight positions: (x, 0) and (14 - x, 0) are one
    for x in 0..8 {
        if db.insert(pos(&format!("{x},0")).key(), valued(0, 1)) {
            n += 1;
        }
    }
    assert_eq!(n, 5);
    assert!(db.bytes() <= 500);
    // replacing a record in place still works when full
    let k = pos("0,0").key();
    assert!(db.insert(k.clone(), valued(5, 2)));
    assert!(!db.insert(pos("7,0").key(), valued(0, 1)));
    db.remove(&k);
    assert!(db.insert(pos("7,0").key(), valued(0, 1)));
    assert_eq!(db.len(), n);
}

#[test]
fn merging_keeps_the_better_record_and_both_comments() {
    let mut a = Database::in_memory(1 << 20);
    let mut b = Database::in_memory(1 << 20);
    let k = pos("7,7 8,8").key();
    let mut deep = valued(30, 20);
    deep.set_comment("deep");
    a.insert(k.clone(), valued(10, 8));
    b.insert(k.clone(), deep);
    let mut won = Record::with_label(LABEL_WIN);
    won.set_board_text((1, 2), "A");
    b.insert(pos("7,7").key(), won.clone());
    a.insert(pos("7,7").key(), valued(0, 30));
    assert_eq!(ops::merge(&mut a, &b).unwrap(), 2);
    assert_eq!(a.get(&k).unwrap().value, 30);
    assert_eq!(a.get(&k).unwrap().comment(), "deep");
    assert_eq!(a.get_position(&pos("7,7")).unwrap().label, LABEL_WIN);
    // a shallower value does not replace a deeper one
    let mut c = Database::in_memory(1 << 20);
    c.insert(k.clone(), valued(-99, 3));
    assert_eq!(ops::merge(&mut a, &c).unwrap(), 0);
    assert_eq!(a.get(&k).unwrap().value, 30);
    // two results that differ: the newer, as Rapfi merges
    let mut d = Database::in_memory(1 << 20);
    d.insert(pos("7,7").key(), Record::with_label(LABEL_LOSE));
    assert_eq!(ops::merge(&mut a, &d).unwrap(), 1);
    assert_eq!(a.get_position(&pos("7,7")).unwrap().label, LABEL_LOSE);
    // the board label of the record replaced is kept
    assert_eq!(a.get_position(&pos("7,7")).unwrap().board_texts().len(), 1);
}

#[test]
fn split_takes_the_branch_and_the_way_to_it() {
    let mut db = Database::in_memory(1 << 20);
    for m in [
        "7,7",
        "7,7 8,8",
        "7,7 8,8 9,9",
        "7,7 8,8 6,6",
        "7,7 6,7",
        "7,7 6,7 5,5",
    ] {
        db.insert(pos(m).key(), valued(1, 1));
    }
    let mut out = Database::in_memory(1 << 20);
    let at = pos("7,7 8,8");
    let path: Vec<Pos> = vec![Pos::new(7, 7), Pos::new(8, 8)];
    assert_eq!(ops::split(&db, &mut out, &path, &at), 4);
    assert!(out.get_position(&pos("7,7 6,6 5,5")).is_some());
    assert!(out.get_position(&pos("7,7 6,7")).is_none());
}

#[test]
fn delete_filters_pick_as_yixin_board_names_them() {
    let build = || {
        let mut db = Database::in_memory(1 << 20);
        db.insert(pos("7,7").key(), valued(0, 1));
        db.insert(pos("7,7 8,8").key(), Record::with_label(LABEL_WIN));
        db.insert(pos("7,7 8,8 9,9").key(), valued(0, 1));
        db.insert(pos("7,7 8,7").key(), valued(3, 4));
        db.insert(pos("7,7 8,7 9,7").key(), Record::with_label(LABEL_LOSE));
        db
    };
    let root = pos("7,7");
    let mut db = build();
    assert_eq!(
        ops::delete_below(&mut db, &root, &*delete_filter("", 0).unwrap()),
        4
    );
    assert_eq!(db.len(), 1);
    // w: the won branch goes with its children
    let mut db = build();
    assert_eq!(
        ops::delete_below(&mut db, &root, &*delete_filter("w", 0).unwrap()),
        2
    );
    assert!(db.get_position(&pos("7,7 8,7 9,7")).is_some());
    // nonwl keeps labelled records and stops there; the valued branch goes whole
    let mut db = build();
    assert_eq!(
        ops::delete_below(&mut db, &root, &*delete_filter("NONWL", 0).unwrap()),
        2
    );
    assert!(db.get_position(&pos("7,7 8,8 9,9")).is_some());
    // ...recursive looks below what it keeps
    let mut db = build();
    let f = delete_filter("nonwlrecursive", 0).unwrap();
    assert_eq!(f(&Record::with_label(LABEL_WIN)), Del::KeepLookBelow);
    assert_eq!(ops::delete_below(&mut db, &root, &*f), 3);
    assert!(delete_filter("bogus", 0).is_err());
}

#[test]
fn values_mean_the_same_chance_in_both_units() {
    use crate::eval::{mate_in, win_probability};
    for rule in [Rule::Freestyle, Rule::Renju, Rule::Caro] {
        for s in [-3000, -400, -1, 0, 57, 800] {
            let v = ops::to_value(s, rule);
            assert!(
                (ops::win_rate(v) - win_probability(s, rule)).abs() < 0.01,
                "{rule:?} {s}"
            );
            assert!((ops::to_score(v, rule) - s).abs() <= 4, "{rule:?} {s}");
        }
        // wins keep their distance
        assert_eq!(ops::to_value(mate_in(5), rule), MATE - 5);
        assert_eq!(ops::to_score(MATE - 5, rule), mate_in(5));
        assert_eq!(ops::to_score(-(MATE - 7), rule), -mate_in(7));
    }
}

#[test]
fn the_text_export_has_rapfis_columns() {
    let mut db = Database::in_memory(1 << 20);
    let mut r = valued(-15, 9);
    r.set_comment("two\nlines");
    db.insert(pos("7,7 8,8").key(), r);
    db.insert(pos("7,7").key(), Record::with_label(LABEL_WIN));
    let mut out = Vec::new();
    assert_eq!(ops::to_csv(&db, None, &mut out).unwrap(), 2);
    let text = String::from_utf8(out).unwrap();
    assert_eq!(
        text,
        "index,key,label,value,depth,bound,text\n\
         0,f-15-15-h8--w,w,0,0,none,\"\"\n\
         1,f-15-15-h8-g7-b,(none),-15,9,exact,\"two\\blines\"\n"
    );
}
