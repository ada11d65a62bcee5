//! `lockstep-pilots`: grading capacity from Slurm. Run it on a login node, where `sbatch`,
//! `squeue` and `scancel` work, with a worker token; it needs no database.

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use clap::Parser;
use slurm_pilots::config::Config;
use slurm_pilots::slurm::Slurm;
use slurm_pilots::supervisor::{round, RoundError, Server};

#[derive(Parser)]
#[command(
    version,
    about = "Keeps gpu-runner workers running as Slurm jobs while Lockstep's queue has work.",
    long_about = "Keeps gpu-runner workers running as Slurm jobs while Lockstep's queue has work: \
one pilot job, pending or running, per submission that waits or is being graded, up to \
max_pilots. Each pilot's worker claims submissions from the server over HTTP and exits when \
idle. Queued submissions show where their pilot waits in Slurm's queue. The pilots inherit \
this process's environment, the worker token included."
)]
struct Cli {
    /// The configuration: partition, GPUs per job, time limit, account, extra #SBATCH lines
    /// (docs/operations.md has an example).
    #[arg(long, value_name = "FILE")]
    config: PathBuf,
    /// The worker token (`lockstep admin worker-token create NAME`).
    #[arg(long, env = "LOCKSTEP_WORKER_TOKEN", hide_env_values = true)]
    token: String,
    /// Make one round and exit.
    #[arg(long)]
    once: bool,
    /// Print the pilot job's batch script and exit.
    #[arg(long)]
    print_script: bool,
}

static STOP: AtomicBool = AtomicBool::new(false);

extern "C" fn on_signal(_: libc::c_int) {
    STOP.store(true, Ordering::SeqCst);
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let config = match Config::load(&cli.config) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("lockstep-pilots: {e}");
            return ExitCode::from(2);
        }
    };
    if cli.print_script {
        print!("{}", config.batch_script());
        return ExitCode::SUCCESS;
    }
    // SAFETY: the handler only stores to an atomic.
    unsafe {
        libc::signal(libc::SIGTERM, on_signal as *const () as libc::sighandler_t);
        libc::signal(libc::SIGINT, on_signal as *const () as libc::sighandler_t);
    }
    let server = Server::new(&config.server, &cli.token);
    let poll = Duration::from_secs_f64(config.poll_seconds);
    eprintln!(
        "lockstep-pilots: up to {} pilot(s) in partition {} for {}",
        config.max_pilots, config.slurm.partition, config.server
    );
    loop {
        match round(&config, &Slurm, &server) {
            Ok(()) => {}
            Err(RoundError::Refused(why)) => {
                eprintln!("lockstep-pilots: the server refused the worker token: {why}");
                return ExitCode::from(1);
            }
            // Slurm or the server may be back next round; pilots already running go on.
            Err(e) => eprintln!("lockstep-pilots: {e}"),
        }
        if cli.once {
            return ExitCode::SUCCESS;
        }
        // Pilots keep running when the supervisor stops; they exit when idle.
        let until = Instant::now() + poll;
        while Instant::now() < until {
            if STOP.load(Ordering::SeqCst) {
                eprintln!("lockstep-pilots: stopped; running pilots exit when idle");
                return ExitCode::SUCCESS;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}
