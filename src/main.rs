//! The `qiyuan` command: serve the trainer, check content, import problems, or convert game
//! records.

use anyhow::Context;
use clap::{Parser, Subcommand};
use qiyuan::content::go::life_check;
use qiyuan::content::{source, Library};
use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;

/// qiyuan (棋院): lessons and puzzles for Go, xiangqi, chess and shogi, judged by real rules engines.
#[derive(Parser)]
#[command(version, about)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum TeacherAction {
    /// Add a teacher; the password is asked at the terminal (or read from standard input).
    Add {
        /// The name the teacher logs in with.
        name: String,
        /// Read the password from the first line of standard input.
        #[arg(long)]
        password_stdin: bool,
        /// The data folder (as given to `serve --data`).
        #[arg(long, value_name = "DIR")]
        data: Option<PathBuf>,
    },
    /// Change a teacher's password (their sessions end).
    Password {
        /// The teacher's name.
        name: String,
        /// Read the password from the first line of standard input.
        #[arg(long)]
        password_stdin: bool,
        /// The data folder (as given to `serve --data`).
        #[arg(long, value_name = "DIR")]
        data: Option<PathBuf>,
    },
    /// List the teachers.
    List {
        /// The data folder (as given to `serve --data`).
        #[arg(long, value_name = "DIR")]
        data: Option<PathBuf>,
    },
}

#[derive(Subcommand)]
enum Command {
    /// Serve the trainer (the default when no command is given).
    Serve {
        /// Address to listen on; 0.0.0.0:8080 serves a whole classroom on the LAN.
        #[arg(long, default_value = "127.0.0.1:8080")]
        addr: SocketAddr,
        /// Read lessons and problems from this folder instead of the built-in ones;
        /// changes show on the next page load.
        #[arg(long, value_name = "DIR")]
        content: Option<PathBuf>,
        /// A real engine for a game's computer opponent, as GAME=PROGRAM [ARGS…]
        /// (`go=/usr/games/gnugo`, `chess=stockfish`, `xiangqi=fairy-stockfish`); by default
        /// GNU Go, Stockfish and Fairy-Stockfish are used when found on PATH or in /usr/games.
        #[arg(long = "engine", value_name = "GAME=PROGRAM", value_parser = qiyuan::play::engine::parse_engine_arg)]
        engines: Vec<qiyuan::play::engine::EngineArg>,
        /// Engine processes running at most (one per game against an installed engine);
        /// games beyond them get the built-in computer. Default: one per core, 2 to 16.
        #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(0..=1024))]
        max_engines: Option<u16>,
        /// A folder of game records (SGF, PGN, KIF, KI2, CSA, in folders too) listed at
        /// /records to replay, search, print and convert; read on demand, never written.
        #[arg(long, value_name = "DIR")]
        records: Option<PathBuf>,
        /// The classroom's data folder (accounts, homework, progress; made on first use);
        /// by default $QIYUAN_DATA or ~/.local/share/qiyuan. A lone learner needs none.
        #[arg(long, value_name = "DIR")]
        data: Option<PathBuf>,
        /// Mark every cookie `Secure` (the server is reached over HTTPS, through a proxy
        /// that ends TLS): browsers then never send the session over plain HTTP.
        #[arg(long)]
        secure_cookies: bool,
        /// The address of a reverse proxy in front of the server: from it, and from it
        /// only, the client's address is read from `X-Forwarded-For` (for the limits by
        /// client) and `X-Forwarded-Proto: https` makes every cookie `Secure`.
        #[arg(long, value_name = "ADDR")]
        trusted_proxy: Option<std::net::IpAddr>,
    },
    /// Add a teacher, or change a teacher's password (the classroom's accounts).
    Teacher {
        #[command(subcommand)]
        action: TeacherAction,
    },
    /// Write a consistent copy of the classroom's database to FILE, even while serving.
    /// To restore: stop the server and copy FILE over qiyuan.db in the data folder
    /// (remove qiyuan.db-wal and qiyuan.db-shm there first).
    Backup {
        /// The copy to write (must not exist).
        file: PathBuf,
        /// The data folder (as given to `serve --data`).
        #[arg(long, value_name = "DIR")]
        data: Option<PathBuf>,
    },
    /// Check every lesson and problem; print each error as path:line:col and exit 1 if any.
    /// Go `live`, `kill` and `ko` problems are proven by the life-and-death solver: an
    /// author's correct line it refutes or wrong line it finds working is an error, a line
    /// it cannot decide within its budget a warning.
    Check {
        /// The content folder (holding lessons/ and problems/); the built-in content if omitted.
        dir: Option<PathBuf>,
        /// The content folder, as `serve --content` takes it (the same as DIR).
        #[arg(long = "content", value_name = "DIR", conflicts_with = "dir")]
        content: Option<PathBuf>,
        /// The solver's budget for each line of a Go life-and-death problem, in positions.
        #[arg(long, value_name = "N", default_value_t = life_check::CHECK_NODES)]
        life_nodes: u64,
    },
    /// Import problems (Go, chess, shogi) into a problem set (a TOML file that `qiyuan check`
    /// accepts).
    Import {
        #[command(subcommand)]
        from: ImportFrom,
    },
    /// Convert a game record between the formats of its game, by the files' extensions:
    /// SGF in any encoding to UTF-8 SGF, PGN to PGN, and KIF, KI2, CSA into each other
    /// (.sgf, .pgn, .kif/.kifu, .ki2/.ki2u, .csa). Every move is checked by the rules.
    Convert {
        /// The record to read.
        input: PathBuf,
        /// The file to write; its extension names the format.
        output: PathBuf,
        /// Convert only this game of a file of several (counted from 1).
        #[arg(long, value_name = "N")]
        game: Option<usize>,
    },
}

#[derive(Subcommand)]
enum ImportFrom {
    /// Tsumego SGF files: variations are lines; a line is correct when its last comment holds
    /// RIGHT, or starts with `+`, or one of its moves is marked TE.
    Sgf {
        /// The SGF files, one problem per game.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        #[command(flatten)]
        life: LifeArgs,
        #[command(flatten)]
        set: SetArgs,
    },
    /// JSON lines of a tsumego collection (`AB`, `AW`, `SZ`, `C`, `SOL` = accepted first moves).
    TsumegoJson {
        /// The .jsonl file.
        file: PathBuf,
        /// Import at most this many problems.
        #[arg(long)]
        limit: Option<usize>,
        #[command(flatten)]
        life: LifeArgs,
        #[command(flatten)]
        set: SetArgs,
    },
    /// Chess puzzles from the Lichess puzzle database CSV (written to problems/chess/): the
    /// FEN is before the opponent's first move; a line that ends in mate (in up to 4 moves)
    /// becomes a `mate` problem, any other a `best` one.
    Lichess {
        /// The .csv file (PuzzleId,FEN,Moves,Rating,…,Themes,…).
        file: PathBuf,
        /// Import at most this many puzzles.
        #[arg(long)]
        limit: Option<usize>,
        #[command(flatten)]
        set: SetArgs,
    },
    /// Shogi tsume as JSON lines with `sfen` and `solution_usi` (written to problems/shogi/).
    Sfen {
        /// The .jsonl file.
        file: PathBuf,
        /// Import at most this many problems.
        #[arg(long)]
        limit: Option<usize>,
        /// Leave out problems longer than this many plies.
        #[arg(long, value_name = "N")]
        max_plies: Option<usize>,
        #[command(flatten)]
        set: SetArgs,
    },
    /// Shogi game records in KIF, KI2 or CSA, UTF-8 or Shift_JIS, with their variations: one
    /// `best` problem a game (written to problems/shogi/).
    Kif {
        /// The record files.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        #[command(flatten)]
        set: SetArgs,
    },
}

/// How imported Go problems are proven.
#[derive(clap::Args)]
struct LifeArgs {
    /// The life-and-death solver's budget for each of the book's first moves, in positions:
    /// the goal is inferred where the file does not say it, the book's answer proven and
    /// the solver's line written out; a disagreement is written with a note. 0 leaves the
    /// problems as the file gives them.
    #[arg(long, value_name = "N", default_value_t = 300_000)]
    life_nodes: u64,
}

#[derive(clap::Args)]
struct SetArgs {
    /// The set's name (a slug: lowercase letters, digits and `-`).
    #[arg(long)]
    set: String,
    /// Where to write the set; problems/GAME/NAME.toml by default.
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
    /// The set's title; the name by default (edit the file to give both languages).
    #[arg(long)]
    title: Option<String>,
}

fn main() -> anyhow::Result<ExitCode> {
    let cli = Cli::parse();
    match cli.command {
        Some(Command::Check {
            dir,
            content,
            life_nodes,
        }) => check(dir.or(content), life_nodes),
        Some(Command::Serve {
            addr,
            content,
            engines,
            max_engines,
            records,
            data,
            secure_cookies,
            trusted_proxy,
        }) => serve(
            addr,
            content,
            &engines,
            max_engines,
            data,
            records,
            Reached {
                secure_cookies,
                trusted_proxy,
            },
        ),
        Some(Command::Teacher { action }) => teacher(action),
        Some(Command::Backup { file, data }) => {
            let store = open_store(data)?;
            qiyuan::class::Store::backup(&store, &file)?;
            eprintln!("qiyuan: backup written to {}", file.display());
            Ok(ExitCode::SUCCESS)
        }
        Some(Command::Import { from }) => import(from),
        Some(Command::Convert {
            input,
            output,
            game,
        }) => convert(&input, &output, game),
        None => serve(
            ([127, 0, 0, 1], 8080).into(),
            None,
            &[],
            None,
            None,
            None,
            Reached::default(),
        ),
    }
}

fn check(dir: Option<PathBuf>, life_nodes: u64) -> anyhow::Result<ExitCode> {
    let files = match &dir {
        Some(d) => {
            let folder = source::Folder::new(d);
            if !d.join("lessons").is_dir() && !d.join("problems").is_dir() {
                anyhow::bail!(
                    "{} has neither a lessons/ nor a problems/ folder: give the content folder",
                    d.display()
                );
            }
            folder
                .read()
                .with_context(|| format!("reading {}", d.display()))?
        }
        None => source::embedded(),
    };
    let (library, mut errors) = check_files(&files);
    let life =
        life_check::check_life_and_death(&library, &files, life_check::check_budget(life_nodes));
    errors.extend(life.errors);
    errors.sort_by(|a, b| (&a.path, a.line, a.col).cmp(&(&b.path, b.line, b.col)));
    for e in &errors {
        println!("{e}");
    }
    for w in &life.warnings {
        println!("{}", life_check::AsWarning(w));
    }
    let lessons: usize = library.shelves.iter().map(|s| s.lessons.len()).sum();
    let problems = library.problem_count();
    eprintln!(
        "life and death: {} of {} problems proven within {life_nodes} positions a line",
        life.proven, life.problems
    );
    if errors.is_empty() {
        eprintln!("ok: {lessons} lessons and {problems} problems checked, no errors");
        Ok(ExitCode::SUCCESS)
    } else {
        eprintln!(
            "{} error{} in {} files",
            errors.len(),
            if errors.len() == 1 { "" } else { "s" },
            files.len()
        );
        Ok(ExitCode::FAILURE)
    }
}

/// Loads and proves every file, as `Library::load` does: the proofs first, on every core, with
/// their progress on stderr when it is a terminal ("proving 412/1,600"); then the load that
/// reports, which finds every proof done.
fn check_files(files: &[(String, String)]) -> (Library, Vec<qiyuan::content::Diagnostic>) {
    use qiyuan::content::{ProofStore, Proving};
    use std::io::{IsTerminal, Write};
    let store = ProofStore::default();
    let pending = Library::load_with(files, &store, Proving::Later).proofs;
    let shown = std::io::stderr().is_terminal() && pending.len() >= 50;
    let threads = qiyuan::content::proofs::cores();
    let last = std::sync::Mutex::new(std::time::Instant::now());
    pending.prove_all(threads, &|done, total| {
        let mut last = last.lock().unwrap_or_else(|e| e.into_inner());
        if shown && (done == total || last.elapsed().as_millis() >= 100) {
            *last = std::time::Instant::now();
            let mut err = std::io::stderr().lock();
            let _ = write!(err, "\rproving {}/{}", thousands(done), thousands(total));
            if done == total {
                let _ = writeln!(err);
            }
        }
    });
    let checked = Library::load_with(files, &store, Proving::Now);
    (checked.library, checked.errors)
}

/// A count with thousands separated by commas: `1,600`.
fn thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

fn read_text(path: &std::path::Path) -> anyhow::Result<String> {
    let bytes = std::fs::read(path).with_context(|| format!("reading {}", path.display()))?;
    Ok(match String::from_utf8(bytes) {
        Ok(s) => s,
        Err(e) => {
            eprintln!(
                "warning: {} is not UTF-8; unreadable characters are replaced",
                path.display()
            );
            String::from_utf8_lossy(e.as_bytes()).into_owned()
        }
    })
}

/// Imported Go problems proven by the life-and-death solver (unless `--life-nodes 0`).
fn prove_go(mut imported: qiyuan::import::Imported, life: &LifeArgs) -> qiyuan::import::Imported {
    if life.life_nodes == 0 {
        return imported;
    }
    let budget = life_check::check_budget(life.life_nodes);
    // GNU Go's owl reading, where it is installed, confirms a refutation before a learner
    // is told of it.
    let mut owl = qiyuan::play::engine::owl::Owl::discover();
    if owl.is_none() {
        eprintln!(
            "life and death: GNU Go is not installed, so no refutation of a book's answer can be confirmed; none is shown to learners"
        );
    }
    let second = owl
        .as_mut()
        .map(|o| o as &mut dyn qiyuan::import::life::SecondReading);
    let s = qiyuan::import::life::prove_life_and_death(&mut imported.problems, budget, second);
    eprintln!(
        "life and death: {} proven as the book answers, {} where the solver disagrees (noted for the author; {} confirmed and shown to learners), {} undecided within {} positions",
        s.proven, s.disagree, s.confirmed, s.unknown, life.life_nodes
    );
    imported
}

/// `qiyuan import …`: every importer, one way of writing its set.
fn import(from: ImportFrom) -> anyhow::Result<ExitCode> {
    use qiyuan::import;
    let started = std::time::Instant::now();
    let read_all = |files: &[PathBuf]| -> anyhow::Result<Vec<(String, Vec<u8>)>> {
        files
            .iter()
            .map(|f| {
                let bytes = std::fs::read(f).with_context(|| format!("reading {}", f.display()))?;
                Ok((f.display().to_string(), bytes))
            })
            .collect()
    };
    let names = |files: &[PathBuf]| {
        files
            .iter()
            .map(|f| f.display().to_string())
            .collect::<Vec<_>>()
            .join(", ")
    };
    // A bad set name is refused before any file is read or proven (an import can take minutes).
    let set_name = match &from {
        ImportFrom::Sgf { set, .. }
        | ImportFrom::TsumegoJson { set, .. }
        | ImportFrom::Lichess { set, .. }
        | ImportFrom::Sfen { set, .. }
        | ImportFrom::Kif { set, .. } => &set.set,
    };
    if !import::is_slug(set_name) {
        anyhow::bail!(import::ImportError::SetName(set_name.clone()));
    }
    let (game, imported, set, origin) = match from {
        ImportFrom::Sgf { files, life, set } => {
            let mut texts = Vec::new();
            for f in &files {
                texts.push((f.display().to_string(), read_text(f)?));
            }
            let origin = format!("Imported by `qiyuan import sgf` from {}", names(&files));
            let imported = prove_go(import::sgf::import_files(&texts), &life);
            (import::sgf::GAME, imported, set, origin)
        }
        ImportFrom::TsumegoJson {
            file,
            limit,
            life,
            set,
        } => (
            import::tsumego_json::GAME,
            prove_go(
                import::tsumego_json::import(
                    &file.display().to_string(),
                    &read_text(&file)?,
                    limit,
                ),
                &life,
            ),
            set,
            format!(
                "Imported by `qiyuan import tsumego-json` from {}",
                file.display()
            ),
        ),
        ImportFrom::Lichess { file, limit, set } => (
            import::lichess::GAME,
            import::lichess::import(&file.display().to_string(), &read_text(&file)?, limit),
            set,
            format!(
                "Imported by `qiyuan import lichess` from {}",
                file.display()
            ),
        ),
        ImportFrom::Sfen {
            file,
            limit,
            max_plies,
            set,
        } => (
            import::sfen::GAME,
            import::sfen::import(
                &file.display().to_string(),
                &read_text(&file)?,
                limit,
                max_plies,
            ),
            set,
            format!("Imported by `qiyuan import sfen` from {}", file.display()),
        ),
        ImportFrom::Kif { files, set } => {
            let origin = format!("Imported by `qiyuan import kif` from {}", names(&files));
            (
                import::kif::GAME,
                import::kif::import_files(&read_all(&files)?),
                set,
                origin,
            )
        }
    };
    for s in &imported.skipped {
        eprintln!("{}: skipped: {}", s.source, s.reason);
    }
    if imported.problems.is_empty() {
        anyhow::bail!(import::ImportError::Empty);
    }
    let title = set.title.clone().unwrap_or_else(|| set.set.clone());
    let out = set
        .out
        .unwrap_or_else(|| PathBuf::from(format!("problems/{}/{}.toml", game.slug(), set.set)));
    let shown = out.display().to_string();
    let mut imported = imported;
    let title = qiyuan::content::Text::both(title);
    let checked = import::write_checked(
        &import::SetTarget {
            game,
            slug: &set.set,
            shown: &shown,
            title: &title,
            origin: &origin,
        },
        &mut imported,
    );
    for (id, why) in &checked.refused {
        eprintln!("refused by the check, rewritten as best or left out: {id}: {why}");
    }
    let errors = &checked.errors;
    for e in errors {
        println!("{e}");
    }
    if imported.problems.is_empty() {
        anyhow::bail!(import::ImportError::Empty);
    }
    if let Some(dir) = out.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    }
    std::fs::write(&out, &checked.toml).with_context(|| format!("writing {shown}"))?;
    let notes: usize = imported.problems.iter().map(|p| p.notes.len()).sum();
    let n = imported.problems.len();
    eprintln!(
        "wrote {n} problem{} to {shown} ({} skipped, {} refused by the check and put right or left out, {notes} notes in # comments; {} error{}; {:.1} s)",
        if n == 1 { "" } else { "s" },
        imported.skipped.len(),
        checked.refused.len(),
        errors.len(),
        if errors.len() == 1 { "" } else { "s" },
        started.elapsed().as_secs_f64()
    );
    Ok(if errors.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

/// `qiyuan convert IN OUT`: a record into another format of its game.
fn convert(
    input: &std::path::Path,
    output: &std::path::Path,
    game: Option<usize>,
) -> anyhow::Result<ExitCode> {
    use qiyuan::record::{self, Format, RecordError};
    let out_name = output.display().to_string();
    let to = Format::from_name(&out_name).ok_or(RecordError::UnknownFormat {
        name: out_name.clone(),
    })?;
    let bytes = std::fs::read(input).with_context(|| format!("reading {}", input.display()))?;
    let converted = record::convert(&input.display().to_string(), &bytes, to, game)?;
    for r in &converted.records {
        for note in &r.notes {
            eprintln!("note: {note}");
        }
    }
    std::fs::write(output, &converted.text).with_context(|| format!("writing {out_name}"))?;
    let moves: usize = converted.records.iter().map(|r| r.moves.len()).sum();
    let variations: usize = converted.records.iter().map(|r| r.variation_count()).sum();
    let games = converted.records.len();
    eprintln!(
        "wrote {games} game{} ({moves} moves in the main line{}, {variations} variation{}) to {out_name} as {}",
        if games == 1 { "" } else { "s" },
        if games == 1 { "" } else { "s" },
        if variations == 1 { "" } else { "s" },
        to.as_str()
    );
    Ok(ExitCode::SUCCESS)
}

/// The data folder: the one given, or the default.
fn data_folder(data: Option<PathBuf>) -> anyhow::Result<PathBuf> {
    data.or_else(qiyuan::class::default_folder)
        .context("no data folder: give --data DIR (neither QIYUAN_DATA nor HOME is set)")
}

fn open_store(data: Option<PathBuf>) -> anyhow::Result<qiyuan::class::sqlite::Sqlite> {
    let folder = data_folder(data)?;
    Ok(qiyuan::class::sqlite::Sqlite::open(&folder)?)
}

/// Reads a new password: the first line of standard input, or twice at the terminal
/// without echo.
fn read_password(from_stdin: bool) -> anyhow::Result<String> {
    use std::io::{BufRead, IsTerminal, Write};
    let stdin = std::io::stdin();
    let password = if from_stdin || !stdin.is_terminal() {
        if !from_stdin {
            anyhow::bail!("standard input is not a terminal: give --password-stdin to read the password from it");
        }
        let mut line = String::new();
        stdin.lock().read_line(&mut line)?;
        line.trim_end_matches(['\n', '\r']).to_string()
    } else {
        let ask = |prompt: &str| -> anyhow::Result<String> {
            eprint!("{prompt}");
            std::io::stderr().flush()?;
            let line = without_echo(|| {
                let mut line = String::new();
                std::io::stdin().lock().read_line(&mut line).map(|_| line)
            })?;
            eprintln!();
            Ok(line.trim_end_matches(['\n', '\r']).to_string())
        };
        let first = ask("password / 密码: ")?;
        let again = ask("again / 再输一次: ")?;
        if first != again {
            anyhow::bail!("the two passwords differ / 两次输入的密码不一样");
        }
        first
    };
    if password.chars().count() < qiyuan::class::password::MIN_LENGTH {
        anyhow::bail!(
            "a password needs at least {} characters / 密码至少要 {} 个字符",
            qiyuan::class::password::MIN_LENGTH,
            qiyuan::class::password::MIN_LENGTH
        );
    }
    Ok(password)
}

/// Runs `read` with the terminal's echo off (Unix), restoring it afterwards.
fn without_echo<T>(read: impl FnOnce() -> std::io::Result<T>) -> std::io::Result<T> {
    #[cfg(unix)]
    {
        // SAFETY: tcgetattr/tcsetattr on standard input with a zeroed termios they fill.
        unsafe {
            let mut term: libc::termios = std::mem::zeroed();
            if libc::tcgetattr(0, &mut term) == 0 {
                let old = term;
                term.c_lflag &= !libc::ECHO;
                libc::tcsetattr(0, libc::TCSANOW, &term);
                let r = read();
                libc::tcsetattr(0, libc::TCSANOW, &old);
                return r;
            }
        }
    }
    read()
}

fn teacher(action: TeacherAction) -> anyhow::Result<ExitCode> {
    use qiyuan::class::{password, Store};
    match action {
        TeacherAction::Add {
            name,
            password_stdin,
            data,
        } => {
            let store = open_store(data)?;
            let pw = read_password(password_stdin)?;
            store.add_teacher(&name, &password::hash(&pw))?;
            eprintln!(
                "qiyuan: teacher {name:?} added to {} — log in at /login",
                store.path().display()
            );
        }
        TeacherAction::Password {
            name,
            password_stdin,
            data,
        } => {
            let store = open_store(data)?;
            let pw = read_password(password_stdin)?;
            store.set_password(&name, &password::hash(&pw))?;
            eprintln!("qiyuan: password of {name:?} changed");
        }
        TeacherAction::List { data } => {
            for t in open_store(data)?.teachers()? {
                println!("{}", t.name);
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// How clients reach the server: over TLS (`--secure-cookies`), through a reverse proxy
/// (`--trusted-proxy`).
#[derive(Clone, Copy, Debug, Default)]
struct Reached {
    secure_cookies: bool,
    trusted_proxy: Option<std::net::IpAddr>,
}

fn serve(
    addr: SocketAddr,
    content: Option<PathBuf>,
    engines: &[qiyuan::play::engine::EngineArg],
    max_engines: Option<u16>,
    data: Option<PathBuf>,
    records: Option<PathBuf>,
    reached: Reached,
) -> anyhow::Result<ExitCode> {
    if let Some(dir) = &records {
        anyhow::ensure!(dir.is_dir(), "--records {}: not a folder", dir.display());
    }
    // One server a data folder: the lock is held until this function returns.
    let _lock =
        match data_folder(data.clone()).map(|f| qiyuan::class::lock::FolderLock::acquire(&f)) {
            Ok(Ok(lock)) => Some(lock),
            Ok(Err(qiyuan::class::lock::LockError::InUse(folder))) => {
                let folder = folder.display().to_string();
                for lang in [qiyuan::lang::Lang::Zh, qiyuan::lang::Lang::En] {
                    let text = &qiyuan::web::i18n::Ui::get(lang).class.folder_in_use;
                    eprintln!("qiyuan: {}", text.replace("{folder}", &folder));
                }
                return Ok(ExitCode::FAILURE);
            }
            Ok(Err(e)) if data.is_some() => return Err(e.into()),
            // Without --data, a folder that cannot be used turns the classroom off below.
            Ok(Err(_)) | Err(_) => None,
        };
    let engines = qiyuan::play::engine::Engines::discover(engines);
    for game in qiyuan::content::Game::ALL {
        if let Some(command) = engines.command(game) {
            eprintln!("qiyuan: {} engine: {command}", game.slug());
        }
    }
    let state = match &content {
        None => qiyuan::web::AppState::embedded(),
        Some(dir) => {
            let state = qiyuan::web::AppState::folder(source::Folder::new(dir));
            let snap = state.snapshot();
            for e in snap.errors.iter() {
                eprintln!("{e}");
            }
            state
        }
    }
    .with_engines(engines);
    let state = match max_engines {
        Some(n) => state.with_max_engines(usize::from(n)),
        None => state,
    };
    // The classroom: a lone learner needs none, so a folder that cannot be used turns it
    // off with a warning instead of stopping the trainer (unless --data was given).
    let given = data.is_some();
    let state = match data_folder(data).and_then(|f| {
        let store = qiyuan::class::sqlite::Sqlite::open(&f)?;
        Ok((store, f))
    }) {
        Ok((store, folder)) => {
            eprintln!("qiyuan: classroom data in {}", store.path().display());
            state.with_store(std::sync::Arc::new(store), Some(folder))
        }
        Err(e) if given => return Err(e),
        Err(e) => {
            eprintln!("qiyuan: no classroom (logins are off): {e:#}");
            state
        }
    };
    let state = state.with_records(records, Default::default());
    use qiyuan::web::serve::{raise_open_file_limit, Limits};
    let limits = Limits::for_open_files(raise_open_file_limit());
    let runtime = tokio::runtime::Runtime::new().context("starting the async runtime")?;
    runtime.block_on(async move {
        let listener =
            qiyuan::web::serve::bind(addr).with_context(|| format!("cannot listen on {addr}"))?;
        let addr = listener.local_addr().unwrap_or(addr);
        let shown = if addr.ip().is_unspecified() {
            format!(
                "http://127.0.0.1:{} (and this machine's LAN address)",
                addr.port()
            )
        } else {
            format!("http://{addr}")
        };
        match &content {
            Some(dir) => println!("qiyuan: serving {} on {shown}", dir.display()),
            None => println!("qiyuan: serving on {shown}"),
        }
        let stop = async {
            let _ = tokio::signal::ctrl_c().await;
        };
        let router = qiyuan::web::app(state);
        let router = if reached.secure_cookies {
            qiyuan::web::serve::secure_cookies(router)
        } else {
            router
        };
        let router = match reached.trusted_proxy {
            Some(proxy) => qiyuan::web::serve::behind_proxy(router, proxy),
            None => router,
        };
        qiyuan::web::serve::serve(listener, router, limits, stop)
            .await
            .context("serving")?;
        Ok(ExitCode::SUCCESS)
    })
}
