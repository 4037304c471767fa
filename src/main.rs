//! The `qiyuan` command: serve the trainer, or check content.

use anyhow::Context;
use clap::{Parser, Subcommand};
use qiyuan::content::{source, Library};
use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;

/// qiyuan (棋院): lessons and puzzles for Go, judged by a real rules engine.
#[derive(Parser)]
#[command(version, about)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
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
    },
    /// Check every lesson and problem; print each error as path:line:col and exit 1 if any.
    Check {
        /// The content folder (holding lessons/ and problems/); the built-in content if omitted.
        dir: Option<PathBuf>,
    },
}

fn main() -> anyhow::Result<ExitCode> {
    let cli = Cli::parse();
    match cli.command {
        Some(Command::Check { dir }) => check(dir),
        Some(Command::Serve { addr, content }) => serve(addr, content),
        None => serve(([127, 0, 0, 1], 8080).into(), None),
    }
}

fn check(dir: Option<PathBuf>) -> anyhow::Result<ExitCode> {
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
    let (library, errors) = Library::load(&files);
    for e in &errors {
        println!("{e}");
    }
    let lessons: usize = library.shelves.iter().map(|s| s.lessons.len()).sum();
    let problems = library.problem_count();
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

fn serve(addr: SocketAddr, content: Option<PathBuf>) -> anyhow::Result<ExitCode> {
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
    };
    let runtime = tokio::runtime::Runtime::new().context("starting the async runtime")?;
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind(addr)
            .await
            .with_context(|| format!("cannot listen on {addr}"))?;
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
        axum::serve(listener, qiyuan::web::app(state))
            .with_graceful_shutdown(async {
                let _ = tokio::signal::ctrl_c().await;
            })
            .await
            .context("serving")?;
        Ok(ExitCode::SUCCESS)
    })
}
