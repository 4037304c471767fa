//! What the browser tests look for in the content library: a problem of each kind in each
//! game, its answer, a wrong move. Everything is found through the library's own API (lines,
//! the engines' verdicts), so no answer is written in the tests.

use qiyuan::content::{Game, Library, Problem, ProblemSet, Shelf, Step, Verdict, WrongMove};

/// The address of a problem.
pub fn problem_path(game: Game, set: &ProblemSet, problem: &Problem) -> String {
    format!("/{}/problems/{}/{}", game.slug(), set.slug, problem.id)
}

/// Every problem of a shelf, with its set, in the order they are listed.
pub fn problems(shelf: &Shelf) -> impl Iterator<Item = (&ProblemSet, &Problem)> {
    shelf
        .sets
        .iter()
        .flat_map(|s| s.problems.iter().map(move |p| (s, p)))
}

/// The names of the points or squares of the largest board of `game`.
pub fn squares(game: Game) -> Vec<String> {
    match game {
        Game::Go => "ABCDEFGHJKLMNOPQRST"
            .chars()
            .flat_map(|c| (1..=19).map(move |n| format!("{c}{n}")))
            .collect(),
        Game::Chess => "abcdefgh"
            .chars()
            .flat_map(|f| (1..=8).map(move |r| format!("{f}{r}")))
            .collect(),
        Game::Shogi => (1..=9)
            .flat_map(|f| "abcdefghi".chars().map(move |r| format!("{f}{r}")))
            .collect(),
        Game::Xiangqi => "abcdefghi"
            .chars()
            .flat_map(|f| (0..=9).map(move |r| format!("{f}{r}")))
            .collect(),
    }
}

/// Every move name a learner could click in `game`: more than the legal ones; the engine
/// sorts them out.
pub fn candidate_moves(game: Game) -> Vec<String> {
    let squares = squares(game);
    let pairs = || {
        squares
            .iter()
            .flat_map(|from| squares.iter().map(move |to| format!("{from}{to}")))
    };
    match game {
        Game::Go => squares.clone(),
        Game::Chess => pairs()
            .flat_map(|mv| {
                let promotes = matches!((&mv[1..2], &mv[3..4]), ("7", "8") | ("2", "1"));
                let mut all = vec![mv.clone()];
                if promotes {
                    all.extend("qrbn".chars().map(|p| format!("{mv}{p}")));
                }
                all
            })
            .collect(),
        Game::Shogi => pairs()
            .flat_map(|mv| [format!("{mv}+"), mv])
            .chain(
                "PLNSGBR"
                    .chars()
                    .flat_map(|p| squares.iter().map(move |to| format!("{p}*{to}"))),
            )
            .collect(),
        Game::Xiangqi => pairs().collect(),
    }
}

/// Whether the problem is answered by moves (not "click every point that …").
pub fn answered_by_moves(problem: &Problem) -> bool {
    problem.puzzle.select_total().is_none()
}

/// One learner move of a solution, and the moves on the board after it (the opponent's
/// answer included).
pub struct SolutionStep {
    pub play: String,
    pub after: Vec<String>,
}

/// The learner's moves that solve `problem`: the main line while the engine follows it,
/// otherwise the first move the engine accepts (a mate with no line written, or a reply the
/// engine chose differently).
pub fn solution(game: Game, problem: &Problem) -> Result<Vec<SolutionStep>, String> {
    let line = problem.puzzle.lines().main_line();
    let mut moves: Vec<String> = Vec::new();
    let mut steps = Vec::new();
    for _ in 0..20 {
        let written = (line.len() > moves.len() && line.starts_with(&moves))
            .then(|| line[moves.len()].clone());
        let correct = |mv: &str| match problem.puzzle.attempt(&moves, &[], mv) {
            Verdict::Correct { moves, solved, .. } => Some((moves, solved)),
            _ => None,
        };
        let found = written
            .and_then(|mv| correct(&mv).map(|c| (mv, c)))
            .or_else(|| {
                candidate_moves(game)
                    .into_iter()
                    .find_map(|mv| correct(&mv).map(|c| (mv, c)))
            });
        let Some((play, (after, solved))) = found else {
            return Err(format!("no correct move after {moves:?}"));
        };
        steps.push(SolutionStep {
            play,
            after: after.clone(),
        });
        if solved {
            return Ok(steps);
        }
        moves = after;
    }
    Err("not solved in 20 moves".into())
}

/// A problem of `game` answered by moves whose main line has at least `min` moves, or else
/// the first problem answered by moves; `captures/1` for Go when it fits.
pub fn move_problem(library: &Library, game: Game, min: usize) -> Option<(&ProblemSet, &Problem)> {
    let shelf = library.shelf(game)?;
    let long = |p: &Problem| answered_by_moves(p) && p.puzzle.lines().main_line().len() >= min;
    problems(shelf)
        .filter(|(s, p)| game == Game::Go && s.slug == "captures" && p.id == "1")
        .chain(problems(shelf))
        .find(|(_, p)| long(p))
        .or_else(|| problems(shelf).find(|(_, p)| answered_by_moves(p)))
}

/// A problem of `game` with a wrong first move written by its author.
pub fn wrong_move(
    library: &Library,
    game: Game,
) -> Option<(&ProblemSet, &Problem, String, &WrongMove)> {
    let candidates = candidate_moves(game);
    problems(library.shelf(game)?).find_map(|(set, problem)| {
        candidates
            .iter()
            .find_map(|mv| match problem.puzzle.lines().step(&[], mv) {
                Step::Wrong(wrong) => Some((set, problem, mv.clone(), wrong)),
                _ => None,
            })
    })
}
