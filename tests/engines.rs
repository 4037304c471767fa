//! Real engines over GTP, UCI and USI (`qiyuan::play::engine`): whole short games with
//! GNU Go, Stockfish and Fairy-Stockfish, every engine move checked by our own rules, GNU
//! Go's count compared with ours; and fake engines that hang, exit or print garbage, each
//! giving its typed error, never a hang or a panic.
//!
//! The real-engine tests fail when the engine is not installed; `scripts/test.sh` installs
//! `gnugo`, `stockfish` and `fairy-stockfish` from Debian.

use qiyuan::content::Game;
use qiyuan::play::engine::{Engine, EngineCommand, EngineError, Engines, Timeouts};
use qiyuan::play::{Level, ShogiHandicap, Start};
use qiyuan::rules::{chess, go, shogi, xiangqi, Rules};
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// Think time per move for the UCI and USI games here: short, to keep the test quick.
const THINK: Duration = Duration::from_millis(20);

/// The installed engine of `game`; a missing engine fails the test, as every missing
/// reference does. GNU Go gets a fixed random seed, so that its games are the same on every
/// run.
fn installed(game: Game, program: &str) -> Engine {
    let engines = Engines::discover(&[]);
    let Some(mut command) = engines.command(game).cloned() else {
        panic!(
            "the {} engine test needs {program}: none on PATH or in /usr/games \
             (apt-get install {program}; scripts/test.sh installs it)",
            game.slug()
        );
    };
    if command.program.ends_with("gnugo") {
        command.args.extend(["--seed".to_string(), "1".to_string()]);
    }
    let mut engine = Engine::start(&command, game)
        .unwrap_or_else(|e| panic!("{command} is installed but did not start: {e}"));
    engine.set_think_time(Some(THINK));
    engine
}

/// The level for ply `i`: every level is used.
fn level(i: usize) -> Level {
    Level::new((i % 5) as u8 + 1).unwrap()
}

/// Lets `engine` play both sides from `first` for at most `plies`, each answer played by our
/// own rules; returns the moves and the final position. Stops at a resignation or the end.
fn self_play<P: Rules>(
    engine: &mut Engine,
    start: &Start,
    first: P,
    plies: usize,
    level_of: impl Fn(usize) -> Level,
) -> (Vec<String>, P, Option<String>) {
    let mut pos = first;
    let mut moves: Vec<String> = Vec::new();
    for i in 0..plies {
        if pos.ending().is_some() {
            return (moves, pos, None);
        }
        let answer = match engine.best_move(start, &moves, level_of(i)) {
            Ok(answer) => answer,
            Err(EngineError::NoMove) => return (moves, pos, Some("no move".into())),
            Err(e) => panic!("{}: move {}: {e}", engine.name(), i + 1),
        };
        if answer == "resign" || answer == "win" {
            return (moves, pos, Some(answer));
        }
        let (next, mv) = pos.play(&answer).unwrap_or_else(|e| {
            panic!(
                "{}: move {} `{answer}` refused by our rules: {e}",
                engine.name(),
                i + 1
            )
        });
        assert_eq!(
            pos.move_name(&mv),
            answer,
            "the answer is the canonical name"
        );
        moves.push(answer);
        pos = next;
    }
    (moves, pos, None)
}

/// Lets GNU Go play `start` against itself to two passes (at its level 0) and checks that
/// our territory count, with the stones GNU Go calls dead, is GNU Go's `final_score`.
/// Returns the moves.
fn play_out_and_count(gnugo: &mut Engine, start: &Start, first: go::Position) -> Vec<String> {
    let Start::Go(qiyuan::base::go::Start {
        size,
        handicap,
        komi,
        ..
    }) = start
    else {
        unreachable!("a Go start")
    };
    let (moves, pos, stopped) = self_play(gnugo, start, first, 250, |_| Level::MIN);
    assert_eq!(
        stopped, None,
        "gnugo vs itself ended by {stopped:?} after {moves:?}"
    );
    assert!(go::game_over(&pos), "no two passes in 250 moves: {moves:?}");
    assert!(moves.len() > 20, "a real game: {moves:?}");

    let dead = gnugo.dead_stones(start, &moves).unwrap();
    let dead_points: Vec<go::Point> = dead
        .iter()
        .map(|name| go::Point::parse(name, *size).unwrap())
        .collect();
    assert!(
        dead_points.iter().all(|&p| pos.board().get(p).is_some()),
        "dead stones on empty points: {dead:?}"
    );
    let theirs = gnugo.final_score(start, &moves).unwrap();
    let counting = go::Counting::new(go::Scoring::Japanese)
        .handicap(*handicap)
        .komi(*komi);
    let ours = go::score_position(&pos, &dead_points, &counting).unwrap();
    assert_eq!(
        ours.outcome.sgf(),
        normalise_score(&theirs),
        "our count of the board after {moves:?} with GNU Go's dead stones {dead:?}"
    );
    eprintln!(
        "engines: {} played {} moves on {size}×{size} with {handicap} handicap stones, \
         GNU Go {theirs}, dead {dead:?}",
        gnugo.name(),
        moves.len()
    );
    moves
}

#[test]
fn gnugo_plays_nine_by_nine_to_two_passes_and_counts_as_we_do() {
    let mut gnugo = installed(Game::Go, "gnugo");
    // GNU Go counts by territory (Japanese rules) unless told otherwise.
    let start = Start::Go(qiyuan::base::go::Start {
        size: 9,
        handicap: 0,
        rules: go::Scoring::Japanese,
        komi: 6.5,
    });
    let moves = play_out_and_count(&mut gnugo, &start, go::Position::empty(9).unwrap());

    // A take-back: the engine is set up again from the start and answers there.
    let back = &moves[..moves.len() / 2];
    let mut before = go::Position::empty(9).unwrap();
    for m in back {
        before = before.play(m).unwrap().0;
    }
    let answer = gnugo.best_move(&start, back, Level::MIN).unwrap();
    assert!(before.play(&answer).is_ok(), "{answer} after a take-back");
}

#[test]
fn gnugo_plays_a_handicap_game_on_the_same_points_as_we_do() {
    let mut gnugo = installed(Game::Go, "gnugo");
    // If GNU Go's board lacked a handicap stone, its moves or its count would differ from
    // ours. Half a point of komi, so that there is no jigo.
    let start = Start::Go(qiyuan::base::go::Start {
        size: 9,
        handicap: 2,
        rules: go::Scoring::Japanese,
        komi: 0.5,
    });
    let moves = play_out_and_count(&mut gnugo, &start, go::handicap_position(9, 2).unwrap());
    let stones: Vec<String> = go::handicap_points(9, 2)
        .unwrap()
        .iter()
        .map(|p| p.name(9))
        .collect();
    assert!(
        !moves.is_empty() && !stones.contains(&moves[0]),
        "{moves:?}"
    );
}

/// GNU Go's `W+3.0` as SGF writes it (`W+3`).
fn normalise_score(score: &str) -> String {
    match score.split_once('+') {
        Some((side, margin)) => {
            let m: f64 = margin.parse().unwrap();
            if m == 0.0 {
                "0".to_string()
            } else if m.fract() == 0.0 {
                format!("{side}+{}", m as i64)
            } else {
                format!("{side}+{m}")
            }
        }
        None => score.to_string(),
    }
}

#[test]
fn gnugo_sets_up_nine_stones_on_nineteen_by_nineteen_and_thirteen() {
    let mut gnugo = installed(Game::Go, "gnugo");
    for (size, handicap) in [(19, 9), (13, 5)] {
        let start = Start::Go(qiyuan::base::go::Start {
            size,
            handicap,
            rules: go::Scoring::Chinese,
            komi: 0.0,
        });
        let first = go::handicap_position(size, handicap).unwrap();
        let (moves, _, stopped) = self_play(&mut gnugo, &start, first, 4, |_| Level::MIN);
        assert_eq!(
            (moves.len(), stopped),
            (4, None),
            "{size}×{size}: {moves:?}"
        );
    }
}

#[test]
fn stockfish_plays_forty_plies_from_a_fen() {
    let mut stockfish = installed(Game::Chess, "stockfish");
    // The Italian game after 4.c3, Black to move.
    let fen = "r1bqk1nr/pppp1ppp/2n5/2b1p3/2B1P3/2P2N2/PP1P1PPP/RNBQK2R b KQkq - 0 4";
    let start = Start::Chess(qiyuan::base::chess::Start {
        fen: fen.to_string(),
    });
    let first = chess::Position::from_fen(fen).unwrap();
    let (moves, pos, stopped) = self_play(&mut stockfish, &start, first, 40, level);
    assert!(
        moves.len() == 40 || pos.ending().is_some() || stopped.is_some(),
        "{moves:?}"
    );
    assert!(moves.len() >= 10, "{moves:?}");
    // From the standard start too (sent as `startpos`).
    let start = Start::Chess(qiyuan::base::chess::Start {
        fen: chess::Position::start().fen(),
    });
    let (moves, _, _) = self_play(&mut stockfish, &start, chess::Position::start(), 4, level);
    assert_eq!(moves.len(), 4);
}

#[test]
fn stockfish_plays_chess960_with_king_takes_rook_castling() {
    let mut stockfish = installed(Game::Chess, "stockfish");
    // Position 518's neighbour: the king on f1 between rooks on e1 and g1 (Shredder-FEN).
    let fen = "bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN w GEge - 0 1";
    let first = chess::Position::from_fen(fen).unwrap();
    assert!(first.is_chess960());
    let start = Start::Chess(qiyuan::base::chess::Start {
        fen: fen.to_string(),
    });
    let (moves, pos, stopped) = self_play(&mut stockfish, &start, first, 30, level);
    assert!(
        moves.len() == 30 || pos.ending().is_some() || stopped.is_some(),
        "{moves:?}"
    );
    // Back to standard chess on the same engine.
    let (moves, _, _) = self_play(
        &mut stockfish,
        &chess_start(),
        chess::Position::start(),
        2,
        level,
    );
    assert_eq!(moves.len(), 2);
}

#[test]
fn stockfish_has_no_move_when_mated() {
    let mut stockfish = installed(Game::Chess, "stockfish");
    // Fool's mate: White to move is mated.
    let start = Start::Chess(qiyuan::base::chess::Start {
        fen: chess::Position::start().fen(),
    });
    let moves: Vec<String> = ["f2f3", "e7e5", "g2g4", "d8h4"].map(String::from).to_vec();
    assert_eq!(
        stockfish.best_move(&start, &moves, Level::MIN),
        Err(EngineError::NoMove)
    );
    // The engine is still in step afterwards.
    assert!(stockfish.best_move(&start, &moves[..1], Level::MIN).is_ok());
}

#[test]
fn fairy_stockfish_plays_shogi_forty_plies_even_and_with_a_handicap() {
    let mut fairy = installed(Game::Shogi, "fairy-stockfish");
    let start = Start::Shogi(qiyuan::base::shogi::Start {
        sfen: shogi::START_SFEN.to_string(),
        handicap: None,
    });
    let (moves, pos, stopped) = self_play(&mut fairy, &start, shogi::Position::start(), 40, level);
    assert!(
        moves.len() == 40 || pos.ending().is_some() || stopped.is_some(),
        "{moves:?}"
    );
    assert!(moves.len() >= 20, "{moves:?}");

    let handicap = ShogiHandicap::TwoPieces;
    let start = Start::Shogi(qiyuan::base::shogi::Start {
        sfen: handicap.sfen().to_string(),
        handicap: Some(handicap),
    });
    let first = shogi::Position::from_sfen(handicap.sfen()).unwrap();
    let (moves, pos, stopped) = self_play(&mut fairy, &start, first, 40, level);
    assert!(
        moves.len() == 40 || pos.ending().is_some() || stopped.is_some(),
        "{moves:?}"
    );
    assert!(moves.len() >= 20, "{moves:?}");
}

/// Fairy-Stockfish told `UCI_Variant xiangqi` plays a whole game against itself through our
/// engine layer (its moves count the ranks from 1, ours from 0), every move checked by our
/// rules, from the start (120 plies at most) and from an endgame's FEN to the mate.
#[test]
fn fairy_stockfish_plays_xiangqi_to_the_end() {
    let mut fairy = installed(Game::Xiangqi, "fairy-stockfish");
    let start = Start::Xiangqi(qiyuan::base::xiangqi::Start {
        fen: xiangqi::START_FEN.to_string(),
    });
    let (moves, pos, stopped) =
        self_play(&mut fairy, &start, xiangqi::Position::start(), 120, level);
    assert!(
        moves.len() == 120 || pos.ending().is_some() || stopped.is_some(),
        "{moves:?}"
    );
    assert!(moves.len() >= 40, "{moves:?}");
    // A rook and horse against a lone king: Fairy-Stockfish mates, and our rules agree.
    let fen = "4k4/9/9/9/9/9/9/9/R8/3K2N2 w - - 0 1";
    let start = Start::Xiangqi(qiyuan::base::xiangqi::Start { fen: fen.into() });
    let first = xiangqi::Position::from_fen(fen).unwrap();
    let (moves, pos, stopped) = self_play(&mut fairy, &start, first, 60, |_| Level::MAX);
    assert!(
        matches!(
            pos.ending(),
            Some(xiangqi::Outcome::Checkmate { .. } | xiangqi::Outcome::Stalemate { .. })
        ),
        "no win after {moves:?} ({stopped:?})"
    );
}

#[test]
fn an_engine_of_another_game_is_refused() {
    let mut fairy = installed(Game::Shogi, "fairy-stockfish");
    let chess_start = Start::Chess(qiyuan::base::chess::Start {
        fen: chess::Position::start().fen(),
    });
    assert_eq!(
        fairy.best_move(&chess_start, &[], Level::MIN),
        Err(EngineError::WrongGame {
            engine: Game::Shogi,
            position: Game::Chess
        })
    );
    assert_eq!(
        fairy.dead_stones(&chess_start, &[]),
        Err(EngineError::WrongGame {
            engine: Game::Shogi,
            position: Game::Chess
        })
    );
    let start = Start::Shogi(qiyuan::base::shogi::Start {
        sfen: shogi::START_SFEN.to_string(),
        handicap: None,
    });
    // An illegal move in the list is the caller's mistake, and the engine stays usable.
    let bad = fairy.best_move(&start, &["7g7e".to_string()], Level::MIN);
    assert!(matches!(bad, Err(EngineError::BadPosition(_))), "{bad:?}");
    assert!(fairy.best_move(&start, &[], Level::MIN).is_ok());
}

// ---- Fake engines ----

/// Short bounds for the fake engines.
const SHORT: Timeouts = Timeouts {
    start: Duration::from_millis(800),
    reply: Duration::from_millis(800),
    go_search: Duration::from_millis(800),
};

/// A shell script in a temporary folder, run with `/bin/sh`.
fn script(name: &str, body: &str) -> EngineCommand {
    let dir = std::env::temp_dir().join(format!("qiyuan-engines-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, body).unwrap();
    EngineCommand::new("/bin/sh", vec![path.display().to_string()])
}

/// A UCI engine that handshakes and then does `on_go` when asked to think.
fn fake_uci(name: &str, on_go: &str) -> EngineCommand {
    script(
        name,
        &format!(
            "while read cmd rest; do
  case \"$cmd\" in
    uci) echo 'id name Fake'; echo 'option name Skill Level type spin default 20 min 0 max 20'; echo uciok;;
    isready) echo readyok;;
    go) {on_go};;
  esac
done
"
        ),
    )
}

/// A GTP engine that handshakes and then does `on_genmove` when asked for a move.
fn fake_gtp(name: &str, on_genmove: &str) -> EngineCommand {
    script(
        name,
        &format!(
            "while read cmd rest; do
  case \"$cmd\" in
    protocol_version) printf '= 2\\n\\n';;
    name) printf '= Fake\\n\\n';;
    known_command) printf '= false\\n\\n';;
    genmove) {on_genmove};;
    *) printf '= \\n\\n';;
  esac
done
"
        ),
    )
}

fn chess_start() -> Start {
    Start::Chess(qiyuan::base::chess::Start {
        fen: chess::Position::start().fen(),
    })
}

fn go_start() -> Start {
    Start::Go(qiyuan::base::go::Start {
        size: 9,
        handicap: 0,
        rules: go::Scoring::Chinese,
        komi: 7.5,
    })
}

/// Runs `f`, and checks that it returned (a hang would not be a typed error) well within
/// a bound far above the timeouts used.
fn returns<T>(f: impl FnOnce() -> T) -> T {
    let began = Instant::now();
    let out = f();
    assert!(began.elapsed() < Duration::from_secs(30), "not a hang");
    out
}

#[test]
fn an_engine_that_never_answers_times_out() {
    for game in Game::ALL {
        let sleeper = EngineCommand::new("sleep", vec!["100".to_string()]);
        let err = returns(|| Engine::start_with(&sleeper, game, SHORT)).unwrap_err();
        match err {
            EngineError::Timeout { after, .. } => assert!(after >= SHORT.start, "{after:?}"),
            other => panic!("{}: {other}", game.slug()),
        }
    }
}

#[test]
fn an_engine_that_hangs_on_a_move_times_out_and_stays_out_of_use() {
    let mut uci =
        Engine::start_with(&fake_uci("hang.sh", "sleep 100"), Game::Chess, SHORT).unwrap();
    assert_eq!(uci.name(), "Fake");
    uci.set_think_time(Some(Duration::from_millis(50)));
    let err = returns(|| uci.best_move(&chess_start(), &[], Level::MIN)).unwrap_err();
    assert!(
        matches!(
            err,
            EngineError::Timeout {
                waiting_for: "bestmove",
                ..
            }
        ),
        "{err}"
    );
    let again = uci.best_move(&chess_start(), &[], Level::MIN).unwrap_err();
    assert_eq!(again, EngineError::Broken(Box::new(err)));

    let mut gtp =
        Engine::start_with(&fake_gtp("hang-gtp.sh", "sleep 100"), Game::Go, SHORT).unwrap();
    let err = returns(|| gtp.best_move(&go_start(), &["D4".to_string()], Level::MIN)).unwrap_err();
    assert!(matches!(err, EngineError::Timeout { .. }), "{err}");
}

#[test]
fn an_engine_that_exits_has_died() {
    for game in Game::ALL {
        let quitter = EngineCommand::new("/bin/sh", vec!["-c".into(), "exit 3".into()]);
        let err = returns(|| Engine::start_with(&quitter, game, SHORT)).unwrap_err();
        assert!(
            matches!(err, EngineError::Died { .. }),
            "{}: {err}",
            game.slug()
        );
    }
    let mut uci = Engine::start_with(&fake_uci("exit.sh", "exit 0"), Game::Chess, SHORT).unwrap();
    let err = returns(|| uci.best_move(&chess_start(), &[], Level::MIN)).unwrap_err();
    assert!(matches!(err, EngineError::Died { .. }), "{err}");
    let mut gtp = Engine::start_with(&fake_gtp("exit-gtp.sh", "exit 1"), Game::Go, SHORT).unwrap();
    let err = returns(|| gtp.best_move(&go_start(), &[], Level::MIN)).unwrap_err();
    assert!(matches!(err, EngineError::Died { .. }), "{err}");
}

#[test]
fn an_engine_that_prints_garbage_breaks_the_protocol() {
    // GTP: an answer that is neither `=` nor `?`.
    let babbler = script(
        "babble.sh",
        "while read line; do echo 'hello there'; echo; done\n",
    );
    let err = returns(|| Engine::start_with(&babbler, Game::Go, SHORT)).unwrap_err();
    assert!(matches!(err, EngineError::Protocol(_)), "{err}");
    // GTP: a move that is no point.
    let mut gtp =
        Engine::start_with(&fake_gtp("zz.sh", "printf '= ZZ99\\n\\n'"), Game::Go, SHORT).unwrap();
    let err = gtp.best_move(&go_start(), &[], Level::MIN).unwrap_err();
    assert!(matches!(err, EngineError::IllegalMove { .. }), "{err}");
    // UCI: endless output without `uciok`.
    let flood = EngineCommand::new("yes", vec!["option name Flood".into()]);
    let err = returns(|| Engine::start_with(&flood, Game::Chess, SHORT)).unwrap_err();
    assert!(matches!(err, EngineError::Protocol(_)), "{err}");
    // UCI: a bestmove that is not a move, and one that is an illegal move.
    let mut uci = Engine::start_with(
        &fake_uci("bad.sh", "echo 'bestmove xyzzy'"),
        Game::Chess,
        SHORT,
    )
    .unwrap();
    let err = uci.best_move(&chess_start(), &[], Level::MIN).unwrap_err();
    assert!(matches!(err, EngineError::Protocol(_)), "{err}");
    let mut uci = Engine::start_with(
        &fake_uci("illegal.sh", "echo 'bestmove e2e5'"),
        Game::Chess,
        SHORT,
    )
    .unwrap();
    let err = uci.best_move(&chess_start(), &[], Level::MIN).unwrap_err();
    assert!(matches!(err, EngineError::IllegalMove { .. }), "{err}");
    // USI: a bestmove in chess notation.
    let usi = script(
        "usi.sh",
        "while read cmd rest; do case \"$cmd\" in usi) echo usiok;; isready) echo readyok;; go) echo 'bestmove e2e4';; esac; done\n",
    );
    let mut usi = Engine::start_with(&usi, Game::Shogi, SHORT).unwrap();
    let start = Start::Shogi(qiyuan::base::shogi::Start {
        sfen: shogi::START_SFEN.to_string(),
        handicap: None,
    });
    let err = usi.best_move(&start, &[], Level::MIN).unwrap_err();
    assert!(matches!(err, EngineError::Protocol(_)), "{err}");
}

#[test]
fn an_overlong_line_breaks_the_protocol() {
    let long = script(
        "long.sh",
        "read line; head -c 100000 /dev/zero | tr '\\0' x; echo; sleep 100\n",
    );
    let err = returns(|| Engine::start_with(&long, Game::Chess, SHORT)).unwrap_err();
    match err {
        EngineError::Protocol(what) => assert!(what.contains("longer than"), "{what}"),
        other => panic!("{other}"),
    }
}

#[test]
fn a_refused_gtp_command_is_typed_and_the_engine_stays_in_use() {
    let fussy = script(
        "fussy.sh",
        "while read cmd rest; do
  case \"$cmd\" in
    protocol_version) printf '= 2\\n\\n';;
    play) printf '? illegal move\\n\\n';;
    genmove) printf '= C3\\n\\n';;
    *) printf '= \\n\\n';;
  esac
done
",
    );
    let mut gtp = Engine::start_with(&fussy, Game::Go, SHORT).unwrap();
    let err = gtp
        .best_move(&go_start(), &["D4".to_string()], Level::MIN)
        .unwrap_err();
    assert_eq!(
        err,
        EngineError::Refused {
            command: "play B D4".to_string(),
            message: "illegal move".to_string()
        }
    );
    // Still in use: with no move to send, it answers.
    assert_eq!(
        gtp.best_move(&go_start(), &[], Level::MIN),
        Ok("C3".to_string())
    );
}

#[test]
fn a_missing_engine_is_a_typed_error() {
    let missing = EngineCommand::new(PathBuf::from("/nonexistent/qiyuan-engine"), Vec::new());
    assert_eq!(
        Engine::start(&missing, Game::Chess).unwrap_err(),
        EngineError::NotFound(PathBuf::from("/nonexistent/qiyuan-engine"))
    );
    let dir = std::env::temp_dir().join(format!("qiyuan-engines-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let not_executable = dir.join("not-executable");
    std::fs::write(&not_executable, "").unwrap();
    let command = EngineCommand::new(not_executable.clone(), Vec::new());
    assert_eq!(
        Engine::start(&command, Game::Go).unwrap_err(),
        EngineError::NotExecutable(not_executable)
    );
    assert_eq!(
        Engines::none().start(Game::Shogi).unwrap_err(),
        EngineError::NoEngine(Game::Shogi)
    );
}
