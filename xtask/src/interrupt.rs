//! What the test command started is stopped however it ends. Drops stop the services when a
//! run finishes or fails, but not when it is interrupted: SIGINT (Ctrl-C) and SIGTERM (a CI
//! timeout) end the process without unwinding, and `pg_ctl` puts PostgreSQL in a session of its
//! own, where the terminal's Ctrl-C never reaches it. So each service registers how to stop it,
//! and a thread waiting for those signals stops the running command's whole process group,
//! then every registered service, last started first, and exits as a shell reports the signal
//! (128 + its number).

use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;

use signal_hook::consts::{SIGINT, SIGTERM};
use signal_hook::iterator::Signals;

type Stop = Box<dyn FnOnce() + Send>;

/// Services to stop, with the id each was registered under.
static STOPS: Mutex<Vec<(u64, Stop)>> = Mutex::new(Vec::new());
/// The process groups of the commands running now (cargo, the test binaries and everything
/// they start).
static GROUPS: Mutex<Vec<u32>> = Mutex::new(Vec::new());
static NEXT: AtomicU64 = AtomicU64::new(1);
/// Set once a signal came: from then on the signal's thread stops everything and exits.
static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// Starts the thread that waits for SIGINT and SIGTERM.
pub fn install() -> std::io::Result<()> {
    let mut signals = Signals::new([SIGINT, SIGTERM])?;
    std::thread::spawn(move || {
        if let Some(signal) = signals.forever().next() {
            INTERRUPTED.store(true, Ordering::SeqCst);
            let name = if signal == SIGINT { "SIGINT" } else { "SIGTERM" };
            // Not eprintln!, which panics when nobody reads standard error any more (the
            // terminal is gone): the services must be stopped all the same.
            use std::io::Write;
            let _ =
                writeln!(std::io::stderr(), "xtask: {name}: stopping the tests and their services");
            for group in GROUPS.lock().unwrap_or_else(|e| e.into_inner()).iter() {
                let _ = Command::new("kill")
                    .args(["-TERM", "--", &format!("-{group}")])
                    .stderr(Stdio::null())
                    .status();
            }
            let stops = std::mem::take(&mut *STOPS.lock().unwrap_or_else(|e| e.into_inner()));
            for (_, stop) in stops.into_iter().rev() {
                stop();
            }
            std::process::exit(128 + signal);
        }
    });
    Ok(())
}

/// A service's stop, run on a signal until this is dropped (by then the owner has stopped it).
pub struct Registered(u64);

pub fn on_signal(stop: impl FnOnce() + Send + 'static) -> Registered {
    let id = NEXT.fetch_add(1, Ordering::Relaxed);
    STOPS.lock().unwrap_or_else(|e| e.into_inner()).push((id, Box::new(stop)));
    Registered(id)
}

impl Drop for Registered {
    fn drop(&mut self) {
        STOPS.lock().unwrap_or_else(|e| e.into_inner()).retain(|(id, _)| *id != self.0);
    }
}

/// Runs `cmd` in a process group of its own, which a signal to xtask stops as a whole: with
/// SIGTERM sent to xtask alone, cargo, the test binaries and the servers they start would
/// otherwise run on.
pub fn spawn_group(cmd: &mut Command) -> std::io::Result<Group> {
    use std::os::unix::process::CommandExt;
    let child = cmd.process_group(0).spawn()?;
    GROUPS.lock().unwrap_or_else(|e| e.into_inner()).push(child.id());
    Ok(Group(child))
}

/// The running command; its group is forgotten once it has been waited for.
pub struct Group(std::process::Child);

impl Group {
    pub fn stdout(&mut self) -> Option<std::process::ChildStdout> {
        self.0.stdout.take()
    }

    /// Waits for the command. When a signal stopped it, this never returns: the signal's
    /// thread is stopping the services and ends the process with the signal's exit code.
    pub fn wait(&mut self) -> std::io::Result<std::process::ExitStatus> {
        let status = self.0.wait()?;
        while INTERRUPTED.load(Ordering::SeqCst) {
            std::thread::park();
        }
        Ok(status)
    }
}

impl Drop for Group {
    fn drop(&mut self) {
        let id = self.0.id();
        GROUPS.lock().unwrap_or_else(|e| e.into_inner()).retain(|g| *g != id);
    }
}
