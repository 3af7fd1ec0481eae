//! Signals: a Ctrl-C flag for long-running commands, children that die with xtask, and children
//! stopped gently.

use std::os::unix::process::CommandExt;
use std::process::{Child, Command};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

static INTERRUPTED: AtomicBool = AtomicBool::new(false);

extern "C" fn on_signal(_: libc::c_int) {
    INTERRUPTED.store(true, Ordering::SeqCst);
}

/// From now on SIGINT and SIGTERM set a flag (see `interrupted`) instead of killing xtask, so it
/// can stop its children and clean up.
pub fn catch_interrupts() {
    let handler: extern "C" fn(libc::c_int) = on_signal;
    // SAFETY: the handler only stores to an atomic, which is async-signal-safe.
    unsafe {
        libc::signal(libc::SIGINT, handler as libc::sighandler_t);
        libc::signal(libc::SIGTERM, handler as libc::sighandler_t);
    }
}

pub fn interrupted() -> bool {
    INTERRUPTED.load(Ordering::SeqCst)
}

/// The kernel kills the child when the thread that spawned it ends, so a server never outlives an
/// xtask that was killed outright. Spawn from the main thread.
pub fn die_with_parent(cmd: &mut Command) {
    // SAFETY: prctl is async-signal-safe and touches no memory of the parent.
    unsafe {
        cmd.pre_exec(|| {
            if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
}

pub fn send(pid: u32, signal: libc::c_int) {
    if let Ok(pid) = libc::pid_t::try_from(pid) {
        // SAFETY: kill has no memory preconditions; a stale pid only yields ESRCH.
        unsafe {
            libc::kill(pid, signal);
        }
    }
}

/// Stops `child`: `signal` (SIGTERM, or the user's SIGINT), then SIGKILL when it still runs after
/// `grace`; reaps it either way.
pub fn stop(child: &mut Child, signal: libc::c_int, grace: Duration) {
    let running = |child: &mut Child| matches!(child.try_wait(), Ok(None));
    if running(child) {
        send(child.id(), signal);
        let deadline = Instant::now() + grace;
        while running(child) && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(50));
        }
        let _ = child.kill();
    }
    let _ = child.wait();
}
