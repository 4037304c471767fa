//! Every address the pages link to, built in one place.
//!
//! ```
//! use qiyuan::content::Game;
//! use qiyuan::web::urls;
//! assert_eq!(urls::lesson(Game::Go, "captures"), "/go/lessons/captures");
//! assert_eq!(urls::problem(Game::Chess, "check", "3"), "/chess/problems/check/3");
//! ```

use crate::base::Game;

/// A game's page: `/go`.
pub fn game(game: Game) -> String {
    format!("/{}", game.slug())
}

/// A lesson: `/go/lessons/captures`.
pub fn lesson(game: Game, slug: &str) -> String {
    format!("/{}/lessons/{slug}", game.slug())
}

/// A lesson with every frame of every diagram, for printing.
pub fn lesson_print(game: Game, slug: &str) -> String {
    format!("{}/print", lesson(game, slug))
}

/// One diagram of a lesson, as a fragment (`index` from 0).
pub fn diagram(game: Game, slug: &str, index: usize) -> String {
    format!("{}/diagram/{index}", lesson(game, slug))
}

/// A Go diagram of a lesson as an SGF file.
pub fn diagram_sgf(game: Game, slug: &str, index: usize) -> String {
    format!("{}/sgf", diagram(game, slug, index))
}

/// A problem set: `/go/problems/captures`.
pub fn set(game: Game, set: &str) -> String {
    format!("/{}/problems/{set}", game.slug())
}

/// A set's A4 worksheet.
pub fn worksheet(game: Game, set: &str) -> String {
    format!("/{}/worksheets/{set}", game.slug())
}

/// A problem: `/go/problems/captures/1`.
pub fn problem(game: Game, set_slug: &str, id: &str) -> String {
    format!("{}/{id}", set(game, set_slug))
}

/// A problem's record download (SGF for Go).
pub fn problem_record(game: Game, set_slug: &str, id: &str) -> String {
    format!("{}/sgf", problem(game, set_slug, id))
}
