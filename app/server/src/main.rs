use std::io::Read;
use std::process::ExitCode;

use anyhow::Context;
use clap::{Parser, Subcommand};
use lockstep_server::admin::{self, AdminError};
use lockstep_server::{build_state, router, serve, Config, ServerError};
use lockstep_store::{Role, Store};
use tracing_subscriber::EnvFilter;

// Every page view allocates and frees a few hundred kilobytes across threads; glibc's malloc
// spent a fifth of a signed-in page's time on it (perf, under `xtask/bench/http.sh`).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Lockstep: the course server, and its operator's commands.
///
/// Without a command it serves the course; settings come from the environment
/// (DATABASE_URL, LOCKSTEP_ADDR, LOCKSTEP_LESSONS, LOCKSTEP_SITE_ROOT, LOCKSTEP_PUBLIC_URL,
/// LOCKSTEP_TRUST_FORWARDED_FOR, LOCKSTEP_WATCH_LESSONS; see the README).
#[derive(Parser)]
#[command(version, args_override_self = true)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Serve the course (the default).
    Serve,
    /// Submit a script for grading with your API token (made on the account page); with
    /// --wait, follow it live to the verdict. Exit code with --wait: 0 pass, 1 fail, 2 error,
    /// timeout or refused, 3 the server could not be reached.
    Submit {
        /// The training script.
        file: std::path::PathBuf,
        /// The Lockstep server.
        #[arg(long, env = "LOCKSTEP_SERVER", default_value = "http://127.0.0.1:3000")]
        server: String,
        /// Your API token (account page); or set LOCKSTEP_TOKEN.
        #[arg(long, env = "LOCKSTEP_TOKEN", hide_env_values = true)]
        token: String,
        /// The exercise, as in its page's address `/exercises/ID`.
        #[arg(long, default_value = "ddp-conversion")]
        exercise: String,
        /// Follow the grading live and print the verdict.
        #[arg(long)]
        wait: bool,
        /// Print the verdict as JSON (gpu-runner/RESULT.md) instead of a report.
        #[arg(long)]
        json: bool,
        /// The language of the progress and the report, en or ko (or ja, which falls back to
        /// English) [default: from LC_ALL, LC_MESSAGES or LANG].
        #[arg(long, value_name = "LANG")]
        lang: Option<lockstep_routes::Lang>,
    },
    /// Operator's commands, against the database directly.
    Admin {
        /// The database; the server's default when not given.
        #[arg(long, env = "DATABASE_URL", default_value = lockstep_store::DEFAULT_URL)]
        database_url: String,
        #[command(subcommand)]
        command: AdminCommand,
    },
}

#[derive(Subcommand)]
enum AdminCommand {
    /// Make an account an instructor (the instructor view, every learner's progress).
    GrantInstructor { email: String },
    /// Make an instructor a learner again.
    RevokeInstructor { email: String },
    /// Set a new password and sign the account out everywhere. Prints a random password
    /// unless --password-stdin is given.
    ResetPassword {
        email: String,
        /// Read the new password from standard input instead.
        #[arg(long)]
        password_stdin: bool,
    },
    /// List every account.
    Accounts,
    /// Grading workers' tokens: `gpu-runner worker --token …` authenticates with one.
    WorkerToken {
        #[command(subcommand)]
        command: WorkerTokenCommand,
    },
}

#[derive(Subcommand)]
enum WorkerTokenCommand {
    /// Make a token for workers named NAME and print it (it is shown only this once).
    Create { name: String },
    /// Revoke the token named NAME: its workers can no longer claim or report.
    Revoke { name: String },
    /// List the live worker tokens.
    List,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let command = cli.command.unwrap_or(Command::Serve);
    if let Command::Submit { file, server, token, exercise, wait, json, lang } = command {
        let lang = lang.unwrap_or_else(lockstep_routes::Lang::of_this_process);
        let request = lockstep_server::submit::Request {
            server: &server,
            token: &token,
            exercise: &exercise,
            file: &file,
            lang,
        };
        return run_submit(&request, wait, json);
    }
    let runtime = tokio::runtime::Runtime::new().expect("a tokio runtime");
    runtime.block_on(async_main(command))
}

fn run_submit(request: &lockstep_server::submit::Request, wait: bool, json: bool) -> ExitCode {
    use lockstep_server::submit::submit;
    match submit(request, wait, &mut |line| eprintln!("{line}")) {
        Ok(done) => {
            match (&done.verdict, &done.ended_without) {
                (Some(v), _) if json => {
                    println!("{}", serde_json::to_string_pretty(v).expect("a verdict serializes"))
                }
                (Some(_), _) => print!("{}", done.report(request.lang).unwrap_or_default()),
                (None, Some(why)) => eprintln!("no verdict: {why}"),
                (None, None) => println!("submitted #{}: {}", done.id, done.url),
            }
            ExitCode::from(done.exit_code())
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(e.exit_code())
        }
    }
}

async fn async_main(command: Command) -> ExitCode {
    match command {
        Command::Submit { .. } => unreachable!("handled before the runtime starts"),
        Command::Serve => match run_server().await {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("error: {e:#}");
                ExitCode::FAILURE
            }
        },
        Command::Admin { database_url, command } => match run_admin(&database_url, command).await {
            Ok(out) => {
                println!("{}", out.trim_end());
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("error: {e}");
                ExitCode::from(if e.is_usage() { 2 } else { 1 })
            }
        },
    }
}

async fn run_admin(url: &str, command: AdminCommand) -> Result<String, AdminError> {
    let store = Store::connect(url).await?;
    let out = match command {
        AdminCommand::GrantInstructor { email } => {
            admin::set_role(&store, &email, Role::Instructor).await
        }
        AdminCommand::RevokeInstructor { email } => {
            admin::set_role(&store, &email, Role::Learner).await
        }
        AdminCommand::ResetPassword { email, password_stdin } => {
            let given = if password_stdin {
                let mut text = String::new();
                std::io::stdin()
                    .read_to_string(&mut text)
                    .map_err(|e| AdminError::Invalid(format!("cannot read standard input: {e}")))?;
                Some(text.trim_end_matches(['\n', '\r']).to_string())
            } else {
                None
            };
            admin::reset_password(&store, &email, given).await
        }
        AdminCommand::Accounts => admin::list(&store).await,
        AdminCommand::WorkerToken { command } => match command {
            WorkerTokenCommand::Create { name } => admin::create_worker_token(&store, &name).await,
            WorkerTokenCommand::Revoke { name } => admin::revoke_worker_token(&store, &name).await,
            WorkerTokenCommand::List => admin::worker_tokens(&store).await,
        },
    };
    store.close().await;
    out
}

async fn run_server() -> anyhow::Result<()> {
    tracing_subscriber::fmt()
        .with_env_filter(
            EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info")),
        )
        .init();
    let config = Config::from_env()?;
    let state = build_state(&config).await?;
    state.sessions.spawn_cleanup(std::time::Duration::from_secs(600));
    state.spawn_reaper();
    let listener = tokio::net::TcpListener::bind(config.addr)
        .await
        .map_err(|source| ServerError::Bind { addr: config.addr, source })?;
    tracing::info!(
        "Lockstep is serving the course at http://{}",
        listener.local_addr().context("local address")?
    );
    serve(listener, router(state)).await?;
    Ok(())
}
