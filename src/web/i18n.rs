//! Interface strings in both languages, and choosing the learner's language.

use crate::lang::Lang;
use serde::Deserialize;
use std::sync::OnceLock;

/// Every string of the interface, read from `locales/{zh,en}.toml`.
///
/// A key missing from either file, or an unknown key, fails the build's tests and the start.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
#[allow(missing_docs)]
pub struct Ui {
    pub site_name: String,
    pub tagline: String,
    pub home_intro: String,
    pub language: String,
    pub lessons: String,
    pub problem_sets: String,
    pub lesson_count: String,
    pub problem_count: String,
    pub start_here: String,
    pub prev_step: String,
    pub next_step: String,
    pub step_of: String,
    pub start_position: String,
    pub practise: String,
    pub back_to: String,
    pub difficulty: String,
    pub black_to_play: String,
    pub white_to_play: String,
    pub red_to_play: String,
    pub hint: String,
    pub show_solution: String,
    /// "Show why" on a solved or failed life-and-death problem, and its page.
    pub show_why: String,
    pub why_title: String,
    pub why_proof: String,
    /// `{move}`: the learner's wrong move.
    pub why_refutation: String,
    pub why_unknown: String,
    pub solution_is: String,
    pub retry: String,
    pub take_back: String,
    pub next_problem: String,
    pub all_problems: String,
    pub correct: String,
    pub opponent_replied: String,
    pub solved: String,
    pub wrong: String,
    pub wrong_general: String,
    pub wrong_refuted: String,
    pub illegal: String,
    pub found: String,
    pub not_answer: String,
    pub select_progress: String,
    pub your_move: String,
    pub your_pick: String,
    pub explanation: String,
    pub content_errors: String,
    pub not_found: String,
    pub home: String,
    pub problem: String,
    pub of_set: String,
    pub keyboard_help: String,
    pub other_lines: String,
    pub count_winner: String,
    pub count_margin: String,
    pub count_black: String,
    pub count_white: String,
    pub count_submit: String,
    pub black: String,
    pub white: String,
    pub draw: String,
    pub your_piece: String,
    pub your_destination: String,
    pub choose_promotion: String,
    pub choose_promotion_shogi: String,
    pub progress_solved: String,
    pub continue_where: String,
    pub review_failed: String,
    pub no_failed: String,
    pub clear_progress: String,
    pub clear_confirm: String,
    pub progress_note: String,
    pub print_lesson: String,
    pub worksheet: String,
    pub answers: String,
    pub name_label: String,
    pub sente_to_play: String,
    pub gote_to_play: String,
    pub your_count: String,
    pub download_sgf: String,
    /// The language's own name, on the other language's switch.
    pub language_name: String,
    /// Playing a whole game.
    pub play: PlayUi,
    /// Game records: open, replay, try, print (`[record]` in the locale files).
    pub record: RecordUi,
    /// The classroom: logging in, the student's home page.
    pub class: ClassUi,
    /// The live board.
    pub live: LiveUi,
    /// The teacher's pages: classes, rosters, homework, the progress grid.
    pub teacher: TeacherUi,
    /// Tasks in lessons.
    pub lesson: LessonUi,
    /// What the classroom and games polish added (`[polish]`, kept apart from the other
    /// sections so that their keys never collide in a merge).
    pub polish: PolishUi,
}

/// The strings of the classroom and games polish (`[polish]` in the locale files).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
#[allow(missing_docs)]
pub struct PolishUi {
    /// Above the login form's picture grid.
    pub tap_pictures: String,
    /// A chosen picture's slot, to choose it again: `{n}`.
    pub change_picture: String,
    /// The slot of a picture not chosen yet.
    pub not_chosen: String,
    /// Taking a homework back, asked first: `{title}`.
    pub take_back_title: String,
    pub take_back_note: String,
    pub take_back_yes: String,
    /// The grid's cell of a student who looked at the solution without trying a move.
    pub looked_only: String,
    /// A classmate at the table, as `{who}` of the pass messages.
    pub opponent: String,
    /// `{who}` passed: one more pass ends the game.
    pub opponent_passed: String,
    /// `{who}` answered the learner's pass with `{move}`.
    pub answered_pass: String,
    /// The learner passed: the game ends if the opponent passes too.
    pub you_passed: String,
    /// Asked before resigning.
    pub resign_confirm: String,
    /// A player at the table: `{side}` and `{who}`.
    pub side_who: String,
    /// A finished game's result: `{result}`.
    pub result_is: String,
    /// A record of a chess variant: `{place}`, `{variant}`.
    pub variant: String,
    /// After a game: the same game again, colours swapped.
    pub rematch: String,
    /// After a game: the rematch opened from it, to go to (or join).
    pub rematch_open: String,
    /// Above a grid wider than the page.
    pub scroll_hint: String,
    /// The live board's choice of a set, then of a problem.
    pub choose_set: String,
    pub show_set: String,
    /// On a home page game card: the game's page with all its lessons and sets.
    pub all_of_game: String,
    /// The home page's longer introduction, folded.
    pub about: String,
    /// At a table: sounds on or off (remembered in the browser; off at first).
    pub sound: String,
    /// A record's variation that the viewer did not add, asked to be deleted.
    pub not_yours: String,
    /// A variation in a record's move tree, for screen readers.
    pub variation: String,
}

/// The strings of the live board (`[live]` in the locale files).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
#[allow(missing_docs)]
pub struct LiveUi {
    pub title: String,
    pub title_class: String,
    pub intro: String,
    pub choose: String,
    pub start: String,
    pub reveal: String,
    pub next: String,
    pub stop: String,
    pub answered: String,
    pub answer_col: String,
    pub count_col: String,
    pub the_answer: String,
    pub nothing_live: String,
    pub no_such_problem: String,
    pub last_of_set: String,
    pub refused: String,
    pub closed: String,
    pub too_many_changes: String,
    pub your_answer: String,
    pub mine: String,
    pub send: String,
    pub cancel: String,
    pub how: String,
    pub you_right: String,
    pub you_wrong: String,
    pub no_answer: String,
}

/// The strings of lesson tasks (`[lesson]` in the locale files).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
#[allow(missing_docs)]
pub struct LessonUi {
    pub your_turn: String,
    pub board_keys: String,
    pub locked: String,
}

/// The strings of the record pages (`[record]` in the locale files).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
#[allow(missing_docs)]
pub struct RecordUi {
    pub nav: String,
    pub title: String,
    pub intro: String,
    pub open: String,
    pub file_label: String,
    pub paste_label: String,
    pub format_label: String,
    pub open_button: String,
    pub too_large: String,
    pub too_much_memory: String,
    pub too_long: String,
    pub too_many_moves: String,
    pub too_deep: String,
    pub reader_stopped: String,
    pub unreadable: String,
    pub no_file: String,
    pub unknown_format: String,
    pub bad_upload: String,
    pub not_found: String,
    pub library: String,
    pub library_count: String,
    pub search: String,
    pub search_button: String,
    pub no_records: String,
    pub unreadable_file: String,
    pub players: String,
    pub date: String,
    pub result: String,
    pub event: String,
    pub file: String,
    pub game_n: String,
    pub games: String,
    pub start: String,
    pub first: String,
    pub prev: String,
    pub next: String,
    pub last: String,
    pub up: String,
    pub down: String,
    pub at_start: String,
    pub at_move: String,
    pub in_variation: String,
    pub comment: String,
    pub moves: String,
    pub keys: String,
    pub try_title: String,
    pub try_intro: String,
    pub try_label: String,
    pub try_button: String,
    pub try_example: String,
    pub confirm: String,
    pub cancel: String,
    pub choose: String,
    pub illegal: String,
    pub too_many: String,
    pub delete: String,
    pub main_line: String,
    pub no_place: String,
    pub downloads: String,
    pub download: String,
    pub print: String,
    pub print_title: String,
    pub per: String,
    pub every: String,
    pub figure: String,
    pub at_note: String,
    pub ko_note: String,
    pub earlier_note: String,
    pub pass_note: String,
    pub wins: String,
    pub by_points: String,
    pub by_resignation: String,
    pub on_time: String,
    pub draw: String,
    pub notes: String,
    pub sheet: String,
}

/// The strings of the classroom's pages (`[class]` in the locale files).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
#[allow(missing_docs)]
pub struct ClassUi {
    pub title: String,
    pub login: String,
    pub login_intro: String,
    pub student_login: String,
    pub teacher_login: String,
    pub class_code: String,
    pub your_name: String,
    pub your_pictures: String,
    pub picture_n: String,
    pub or_type: String,
    pub teacher_name: String,
    pub password: String,
    pub log_in: String,
    pub log_out: String,
    pub wrong_login: String,
    pub wrong_password: String,
    pub too_many: String,
    pub bad_form: String,
    pub forbidden: String,
    pub not_found: String,
    pub login_first: String,
    pub no_classroom: String,
    pub unwritable: String,
    pub store_error: String,
    pub my_homework: String,
    pub class_name: String,
    pub no_homework: String,
    pub due: String,
    pub overdue: String,
    pub done_of: String,
    pub state_done: String,
    pub state_started: String,
    pub state_not_started: String,
    pub my_totals: String,
    pub merge_note: String,
    pub merged: String,
    pub mark_read: String,
    pub marked_read: String,
    pub teacher_home: String,
    pub busy: String,
    pub check_failed: String,
    pub unkept: String,
    pub events_too_fast: String,
    pub folder_in_use: String,
}

/// The strings of the teacher's pages (`[teacher]` in the locale files).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
#[allow(missing_docs)]
pub struct TeacherUi {
    pub title: String,
    pub no_classes: String,
    pub new_class: String,
    pub class_name: String,
    pub create: String,
    pub created: String,
    pub code: String,
    pub students_count: String,
    pub open: String,
    pub delete: String,
    pub delete_title: String,
    pub delete_note: String,
    pub delete_yes: String,
    pub cancel: String,
    pub students: String,
    pub no_students: String,
    pub add_students: String,
    pub add_note: String,
    pub add: String,
    pub added: String,
    pub roster_refused: String,
    pub duplicate_name: String,
    pub bad_name: String,
    pub name_too_long: String,
    pub empty_roster: String,
    pub class_full: String,
    pub homework: String,
    pub no_homework: String,
    pub give_homework: String,
    pub hw_title: String,
    pub choose_tasks: String,
    pub sets: String,
    pub lessons: String,
    pub single_problems: String,
    pub due_date: String,
    pub give: String,
    pub given: String,
    pub taken_back: String,
    pub take_back: String,
    pub due: String,
    pub homework_refused: String,
    pub bad_title: String,
    pub no_task: String,
    pub bad_task: String,
    pub bad_date: String,
    pub grid: String,
    pub grid_note: String,
    pub legend: String,
    pub first_try: String,
    pub after_mistakes: String,
    pub failed: String,
    pub started: String,
    pub not_started: String,
    pub solved_of: String,
    pub student: String,
    pub activity: String,
    pub activity_alt: String,
    pub tries_on: String,
    pub cards: String,
    pub print: String,
    pub cards_note: String,
    pub card_go: String,
    pub card_steps: String,
    pub downloads: String,
    pub attempts_csv: String,
    pub grid_csv: String,
    pub back_to_class: String,
    pub student_title: String,
    pub problems_tried: String,
    pub no_tries: String,
    pub hint_used: String,
    pub solution_used: String,
    pub time_taken: String,
    pub not_solved: String,
    pub mistakes: String,
    pub line: String,
    pub lessons_read: String,
    pub opened: String,
    pub finished: String,
    pub no_lessons: String,
    pub games: String,
    pub no_games: String,
    pub vs: String,
    pub problem_title: String,
    pub who_solved: String,
    pub wrong_moves: String,
    pub wrong_note: String,
    pub played_by: String,
    pub no_wrong: String,
    pub after: String,
    pub open_problem: String,
}

/// The strings of the game pages (`[play]` in the locale files).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
#[allow(missing_docs)]
pub struct PlayUi {
    pub nav: String,
    pub title: String,
    pub intro: String,
    pub new_game: String,
    pub opponent: String,
    pub computer: String,
    pub classmate: String,
    pub level: String,
    pub level_n: String,
    pub level_names: Vec<String>,
    pub side: String,
    pub random: String,
    pub start: String,
    pub join_title: String,
    pub join_code: String,
    pub join: String,
    pub my_games: String,
    pub my_games_note: String,
    pub you: String,
    pub waiting: String,
    pub your_turn: String,
    pub their_turn: String,
    pub thinking: String,
    pub watching: String,
    pub join_seat: String,
    pub turn_of: String,
    pub check: String,
    pub pass: String,
    pub resign: String,
    pub undo: String,
    pub offer_draw: String,
    pub accept_draw: String,
    pub draw_offered: String,
    pub you_offered: String,
    pub declare: String,
    pub counting: String,
    pub counting_computer: String,
    pub agree: String,
    pub resume: String,
    pub agreed_by: String,
    pub move_input: String,
    pub play: String,
    pub confirm: String,
    pub confirm_dead: String,
    pub cancel: String,
    pub moves: String,
    pub no_moves: String,
    pub result: String,
    pub download: String,
    pub share: String,
    pub hints_on: String,
    pub hints_off: String,
    pub atari_note: String,
    pub engine_failed: String,
    pub replay: String,
    pub replay_at: String,
    pub back_to_game: String,
    pub first: String,
    pub prev: String,
    pub next: String,
    pub last: String,
    pub last_move: String,
    pub refused: String,
    pub clock: String,
    pub byoyomi: String,
    pub minutes: String,
    pub byoyomi_seconds: String,
    pub increment_seconds: String,
    pub which_computer: String,
    pub classmate_name: String,
    pub move_example: String,
    pub builtin: String,
    pub engines_busy: String,
}

impl Ui {
    /// The string of a key that content names (who is to play, the promotion question), if
    /// there is such a key.
    pub fn key(&self, name: &str) -> Option<&str> {
        Some(match name {
            "black_to_play" => &self.black_to_play,
            "white_to_play" => &self.white_to_play,
            "red_to_play" => &self.red_to_play,
            "sente_to_play" => &self.sente_to_play,
            "gote_to_play" => &self.gote_to_play,
            "choose_promotion" => &self.choose_promotion,
            "choose_promotion_shogi" => &self.choose_promotion_shogi,
            _ => return None,
        })
    }

    /// The strings for `lang`.
    pub fn get(lang: Lang) -> &'static Ui {
        static UI: OnceLock<[Ui; 2]> = OnceLock::new();
        let all = UI.get_or_init(|| {
            let read = |text: &str, name: &str| -> Ui {
                toml::from_str(text).unwrap_or_else(|e| panic!("locales/{name}.toml: {e}"))
            };
            [
                read(include_str!("../../locales/zh.toml"), "zh"),
                read(include_str!("../../locales/en.toml"), "en"),
            ]
        });
        match lang {
            Lang::Zh => &all[0],
            Lang::En => &all[1],
        }
    }
}

/// Replaces `{name}` in `template` with each value.
///
/// ```
/// use qiyuan::web::i18n::fill;
/// assert_eq!(fill("{found} of {total}", &[("found", "2"), ("total", "5")]), "2 of 5");
/// ```
pub fn fill(template: &str, values: &[(&str, &str)]) -> String {
    let mut out = template.to_string();
    for (name, value) in values {
        out = out.replace(&format!("{{{name}}}"), value);
    }
    out
}

/// Chooses the language: `?lang=`, then the `lang` cookie, then `Accept-Language`, else zh.
pub fn negotiate(query: Option<&str>, cookie: Option<&str>, accept: Option<&str>) -> Lang {
    if let Some(l) = query.and_then(Lang::parse) {
        return l;
    }
    if let Some(l) = cookie.and_then(|c| {
        c.split(';')
            .filter_map(|kv| kv.trim().split_once('='))
            .find(|(k, _)| *k == "lang")
            .and_then(|(_, v)| Lang::parse(v))
    }) {
        return l;
    }
    if let Some(accept) = accept {
        // Highest quality first; ties keep their order.
        let mut ranked: Vec<(f32, usize, Lang)> = accept
            .split(',')
            .enumerate()
            .filter_map(|(i, part)| {
                let mut it = part.split(';');
                let lang = Lang::parse(it.next()?)?;
                let q = it
                    .find_map(|p| p.trim().strip_prefix("q="))
                    .and_then(|q| q.parse().ok())
                    .unwrap_or(1.0);
                (q > 0.0).then_some((q, i, lang))
            })
            .collect();
        ranked.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
        if let Some((_, _, l)) = ranked.first() {
            return *l;
        }
    }
    Lang::Zh
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_locales_load() {
        assert_eq!(Ui::get(Lang::Zh).site_name, "棋院");
        assert_eq!(Ui::get(Lang::En).site_name, "qiyuan");
    }

    #[test]
    fn chooses_language_in_order() {
        assert_eq!(negotiate(Some("en"), Some("lang=zh"), None), Lang::En);
        assert_eq!(
            negotiate(None, Some("a=b; lang=en"), Some("zh-CN")),
            Lang::En
        );
        assert_eq!(
            negotiate(None, None, Some("fr;q=1, en-GB;q=0.8, zh;q=0.5")),
            Lang::En
        );
        assert_eq!(negotiate(None, None, Some("de, fr")), Lang::Zh);
        assert_eq!(negotiate(None, None, None), Lang::Zh);
        assert_eq!(negotiate(Some("xx"), None, Some("en")), Lang::En);
    }
}
