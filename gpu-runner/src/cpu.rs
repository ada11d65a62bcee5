//! Where the CPU time went while a job ran: the job's own (its cgroup's accounting) and the
//! rest of the machine's on the CPUs the job may use (`/proc/stat`). The speedup check needs
//! the second to tell a slow script from a busy machine. This measures; the sandbox confines.

use grading_protocol::CpuTime;

/// Started before a job, finished after it.
pub struct Meter {
    busy_before: Option<f64>,
}

impl Meter {
    pub fn start() -> Meter {
        Meter { busy_before: machine_busy_s() }
    }

    /// The split, given the job's own CPU seconds; `None` where either side is unknown.
    pub fn finish(self, job_s: Option<f64>) -> Option<CpuTime> {
        let busy = self.busy_before.zip(machine_busy_s()).map(|(a, b)| b - a)?;
        let job_s = job_s?;
        Some(CpuTime { job_s, others_s: (busy - job_s).max(0.0) })
    }
}

/// The kind of cgroup file a job's CPU usage is read from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CgroupUsage {
    /// v2 `cpu.stat`: a `usage_usec N` line, in microseconds.
    V2CpuStat,
    /// v1 `cpuacct.usage`: one number, in nanoseconds.
    V1CpuacctUsage,
}

/// CPU seconds from a cgroup's usage file's text.
pub fn cgroup_usage_s(kind: CgroupUsage, text: &str) -> Option<f64> {
    match kind {
        CgroupUsage::V2CpuStat => {
            let usec = text.lines().find_map(|l| l.strip_prefix("usage_usec "))?;
            Some(usec.trim().parse::<f64>().ok()? / 1e6)
        }
        CgroupUsage::V1CpuacctUsage => Some(text.trim().parse::<f64>().ok()? / 1e9),
    }
}

/// Busy time so far of the CPUs this process may run on, in seconds: everything but idle and
/// iowait in `/proc/stat`, steal included (time a hypervisor gave to another guest).
fn machine_busy_s() -> Option<f64> {
    // SAFETY: a zeroed cpu_set_t is a valid empty set; sched_getaffinity fills it.
    let allowed = unsafe {
        let mut set: libc::cpu_set_t = std::mem::zeroed();
        (libc::sched_getaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &mut set) == 0)
            .then_some(set)
    }?;
    // SAFETY: sysconf has no memory effects.
    let hz = unsafe { libc::sysconf(libc::_SC_CLK_TCK) } as f64;
    let stat = std::fs::read_to_string("/proc/stat").ok()?;
    // SAFETY: CPU_ISSET reads the set; indices at or past CPU_SETSIZE are never passed.
    let ticks = busy_ticks(&stat, |cpu| {
        cpu < libc::CPU_SETSIZE as usize && unsafe { libc::CPU_ISSET(cpu, &allowed) }
    });
    (hz > 0.0).then(|| ticks as f64 / hz)
}

/// The busy ticks of the `cpuN` lines of `/proc/stat` whose N `allowed` accepts.
fn busy_ticks(stat: &str, allowed: impl Fn(usize) -> bool) -> u64 {
    let mut ticks = 0u64;
    for line in stat.lines() {
        let mut fields = line.split_whitespace();
        let Some(cpu) =
            fields.next().and_then(|f| f.strip_prefix("cpu")).and_then(|n| n.parse::<usize>().ok())
        else {
            continue;
        };
        if !allowed(cpu) {
            continue;
        }
        // user nice system idle iowait irq softirq steal (guest time is inside user).
        let v: Vec<u64> = fields.take(8).map(|f| f.parse().unwrap_or(0)).collect();
        ticks +=
            v.iter().enumerate().filter(|(i, _)| *i != 3 && *i != 4).map(|(_, t)| t).sum::<u64>();
    }
    ticks
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cgroup_usage_in_both_versions() {
        assert_eq!(
            cgroup_usage_s(CgroupUsage::V2CpuStat, "usage_usec 2500000\nuser_usec 2000000\n"),
            Some(2.5)
        );
        assert_eq!(cgroup_usage_s(CgroupUsage::V1CpuacctUsage, "1500000000\n"), Some(1.5));
        assert_eq!(cgroup_usage_s(CgroupUsage::V2CpuStat, "user_usec 1\n"), None);
    }

    #[test]
    fn busy_ticks_leave_out_idle_iowait_and_other_cpus() {
        let stat = "cpu  100 100 100 100 100 100 100 100 0 0\n\
                    cpu0 1 2 3 1000 2000 4 5 6 0 0\n\
                    cpu1 10 20 30 1000 2000 40 50 60 0 0\n\
                    intr 12345\n";
        assert_eq!(busy_ticks(stat, |_| true), 21 + 210);
        assert_eq!(busy_ticks(stat, |c| c == 1), 210);
    }
}
