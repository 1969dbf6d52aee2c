use super::*;

fn opts(games: u64, jobs: usize) -> Options {
    Options {
        games,
        nodes: 400,
        jobs,
        seed: 7,
        rules: vec![Rule::Freestyle, Rule::Renju, Rule::Caro],
        sizes: vec![9],
        sample_permille: 1000,
        games_file: None,
    }
}

fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("rensa-selfplay-{}-{name}", std::process::id()));
    let _ = std::fs::remove_file(&dir);
    dir
}

fn records(path: &Path) -> Vec<Record> {
    let mut v = Vec::new();
    read_file(path, |r| v.push(r.clone())).unwrap();
    v
}

#[test]
fn a_record_reads_back_as_written() {
    let r = Record {
        rule: Rule::Renju,
        width: 15,
        height: 20,
        side: Color::White,
        result: -1,
        score: -321,
        stones: vec![
            (Pos::new(7, 7), Color::Black),
            (Pos::new(14, 19), Color::White),
            (Pos::new(0, 0), Color::Black),
        ],
    };
    let mut bytes = Vec::new();
    r.write(&mut bytes);
    assert_eq!(bytes.len(), 10 + 6);
    let (back, len) = Record::read(&bytes).unwrap();
    assert_eq!((back, len), (r, bytes.len()));
    assert!(Record::read(&bytes[..bytes.len() - 1]).is_none());
}

#[test]
fn games_give_legal_distinct_positions_with_results() {
    let path = scratch("legal");
    let mut last = (0, 0, 0);
    let n = run(&path, &opts(4, 2), &mut |g, of, r| last = (g, of, r)).unwrap();
    assert_eq!(last, (4, 4, n));
    let rs = records(&path);
    assert_eq!(rs.len() as u64, n);
    assert!(n > 10, "{n} records");
    let mut keys = HashSet::new();
    for r in &rs {
        assert!(keys.insert(r.board().hash()), "a position twice");
        assert!([-1, 0, 1].contains(&r.result));
        assert!(!is_mate_score(r.score as i32));
        assert_eq!((r.width, r.height), (9, 9));
        let b = r.board();
        assert_eq!(b.stone_count(), r.stones.len(), "stones on distinct cells");
        // colours alternate from black, and the side to move follows them
        let blacks = r.stones.iter().filter(|s| s.1 == Color::Black).count();
        assert!(blacks == r.stones.len() - blacks || blacks == r.stones.len() - blacks + 1);
        let side = if 2 * blacks == r.stones.len() {
            Color::Black
        } else {
            Color::White
        };
        assert_eq!(r.side, side);
    }
    // the winner's positions say win, the loser's loss, within a game
    assert!(rs.iter().any(|r| r.result != 0));
    let _ = std::fs::remove_file(&path);
}

#[test]
fn a_run_resumes_where_it_stopped_and_drops_a_cut_block() {
    let path = scratch("resume");
    let first = run(&path, &opts(2, 1), &mut |_, _, _| {}).unwrap();
    // nothing more to do
    assert_eq!(run(&path, &opts(2, 1), &mut |_, _, _| {}).unwrap(), first);
    // a block cut short by a crash is dropped, its game played again
    let len = std::fs::metadata(&path).unwrap().len();
    let f = OpenOptions::new().write(true).open(&path).unwrap();
    f.set_len(len - 3).unwrap();
    drop(f);
    let resumed = run(&path, &opts(3, 1), &mut |_, _, _| {}).unwrap();
    let c = read_file(&path, |_| {}).unwrap();
    assert_eq!(c.games, HashSet::from([0, 1, 2]));
    assert_eq!(c.records, resumed);
    // the same seed gives the same positions, game by game, however the run was split
    let whole = scratch("whole");
    run(&whole, &opts(3, 1), &mut |_, _, _| {}).unwrap();
    let key_set =
        |p: &Path| -> HashSet<u64> { records(p).iter().map(|r| r.board().hash()).collect() };
    assert_eq!(key_set(&path), key_set(&whole));
    let _ = std::fs::remove_file(&path);
    let _ = std::fs::remove_file(&whole);
}

#[test]
fn blocks_read_back_whole_with_their_game_numbers() {
    let path = scratch("blocks");
    let (mut f, _) = open(&path).unwrap();
    let rec = |n: usize| Record {
        rule: Rule::Freestyle,
        width: 9,
        height: 9,
        side: if n % 2 == 0 {
            Color::Black
        } else {
            Color::White
        },
        result: 1,
        score: n as i16,
        stones: (0..n)
            .map(|i| {
                (
                    Pos::new(i, 0),
                    if i % 2 == 0 {
                        Color::Black
                    } else {
                        Color::White
                    },
                )
            })
            .collect(),
    };
    write_game(&mut f, 7, &[rec(1), rec(3)]).unwrap();
    write_game(&mut f, 2, &[rec(2)]).unwrap();
    drop(f);
    let mut blocks = Vec::new();
    let c = read_blocks(&path, |g, b| blocks.push((g, b.to_vec()))).unwrap();
    assert_eq!(blocks, vec![(7, vec![rec(1), rec(3)]), (2, vec![rec(2)])]);
    assert_eq!((c.records, c.games), (3, HashSet::from([7, 2])));
    let _ = std::fs::remove_file(&path);
}

#[test]
fn a_file_of_something_else_is_refused() {
    let path = scratch("other");
    std::fs::write(&path, b"not a self-play file").unwrap();
    assert!(run(&path, &opts(1, 1), &mut |_, _, _| {}).is_err());
    let _ = std::fs::remove_file(&path);
}

#[test]
fn games_are_also_written_as_an_sgf_collection() {
    let path = scratch("sgf-records");
    let sgf = scratch("sgf-games.sgf");
    let _ = std::fs::remove_file(&sgf);
    let o = Options {
        games_file: Some(sgf.clone()),
        ..opts(3, 2)
    };
    run(&path, &o, &mut |_, _, _| {}).unwrap();
    let text = std::fs::read_to_string(&sgf).unwrap();
    let games = crate::record::sgf::parse(&text).unwrap();
    assert_eq!(games.len(), 3);
    for g in &games {
        let rule = g.rule.expect("the rule is written");
        let mut e = crate::engine::Engine::new();
        e.new_game(g.width, g.height, rule);
        assert!((2..=5).contains(&g.opening), "{}", g.opening);
        for m in &g.moves {
            let p = e.cell(m.x, m.y).unwrap();
            e.play(p).unwrap();
        }
        let last = e.board().history().last().unwrap().0;
        let expected = match e.board().is_five_at(last) {
            true => crate::record::Outcome::Won(e.board().stone(last).unwrap()),
            false => crate::record::Outcome::Draw,
        };
        assert_eq!(g.result, Some(expected));
    }
    let _ = std::fs::remove_file(&path);
    let _ = std::fs::remove_file(&sgf);
}
