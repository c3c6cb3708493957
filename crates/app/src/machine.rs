//! What the machine has: its memory, for the defaults and the limits of
//! tables and searches.
//!
//! [`usable_memory`] is the one answer to "how much may this process still
//! allocate": the least of what the kernel can give without swapping
//! (`MemAvailable`), the room left under the process's control group
//! (cgroup v2 `memory.max`, v1 `memory.limit_in_bytes`) and the room left
//! under its resource limits (`ulimit -v`: RLIMIT_AS; RLIMIT_DATA). Every
//! start check (`--hash`, the server's searches × hash, the solvers' and
//! builders' defaults) uses it, so a limit set outside zoo is honoured
//! before an allocation fails.

/// The bytes an unprivileged writer may still put on the file system that
/// holds `path` (`statvfs`'s available blocks), looked up at its nearest
/// existing ancestor: a build's directory may not be made yet. `None`
/// where that cannot be read.
pub fn free_disk(path: &std::path::Path) -> Option<u64> {
    use std::os::unix::ffi::OsStrExt;
    // A relative path's ancestors end at "", the working directory.
    let at = path
        .ancestors()
        .map(|p| {
            if p.as_os_str().is_empty() {
                std::path::Path::new(".")
            } else {
                p
            }
        })
        .find(|p| p.exists())?;
    let c = std::ffi::CString::new(at.as_os_str().as_bytes()).ok()?;
    let mut st = std::mem::MaybeUninit::<libc::statvfs>::uninit();
    // SAFETY: `c` is a NUL-terminated path and `st` room for the answer,
    // read only when the call says it wrote it.
    let st = unsafe {
        if libc::statvfs(c.as_ptr(), st.as_mut_ptr()) != 0 {
            return None;
        }
        st.assume_init()
    };
    Some((st.f_bavail as u64).saturating_mul(st.f_frsize as u64))
}

/// The machine's memory in bytes (`MemTotal` of `/proc/meminfo`), `None`
/// where that cannot be read (another system).
pub fn total_memory() -> Option<u64> {
    meminfo_total(&std::fs::read_to_string("/proc/meminfo").ok()?)
}

/// The memory the machine can give without swapping (`MemAvailable`),
/// `None` where that cannot be read.
pub fn available_memory() -> Option<u64> {
    meminfo_field(
        &std::fs::read_to_string("/proc/meminfo").ok()?,
        "MemAvailable:",
    )
}

/// The bytes this process may still allocate: the least of
/// [`available_memory`], the room under its cgroup's memory limit and the
/// room under its address-space and data limits. `None` where none of them
/// can be read (another system).
pub fn usable_memory() -> Option<u64> {
    let read = |p: &str| std::fs::read_to_string(p).ok();
    let limits = read("/proc/self/limits").unwrap_or_default();
    let status = read("/proc/self/status").unwrap_or_default();
    [
        available_memory(),
        cgroup_room(),
        rlimit_room(&limits, "Max address space", &status, "VmSize:"),
        rlimit_room(&limits, "Max data size", &status, "VmData:"),
    ]
    .into_iter()
    .flatten()
    .min()
}

/// What the process may still allocate under one resource limit of
/// `/proc/self/limits` (`limits`): its soft limit less what the process
/// already holds (the `used` field of `/proc/self/status`). `None`:
/// unlimited or unreadable.
fn rlimit_room(limits: &str, name: &str, status: &str, used: &str) -> Option<u64> {
    let line = limits.lines().find(|l| l.starts_with(name))?;
    let soft: u64 = line[name.len()..].split_whitespace().next()?.parse().ok()?;
    let held = meminfo_field(status, used).unwrap_or(0);
    Some(soft.saturating_sub(held))
}

/// Room under the process's control group's memory limit: the limit less
/// its usage. cgroup v2 first (`memory.max`, `memory.current`), then v1
/// (`memory.limit_in_bytes`, `memory.usage_in_bytes`), each looked for at
/// the process's own group and at the mount's root (a container sees its
/// group as the root). `None`: no limit ("max", or v1's huge value).
fn cgroup_room() -> Option<u64> {
    let groups = std::fs::read_to_string("/proc/self/cgroup").unwrap_or_default();
    let read = |p: String| -> Option<String> { std::fs::read_to_string(p).ok() };
    let mut dirs = Vec::new();
    for line in groups.lines() {
        let mut parts = line.splitn(3, ':');
        let (id, ctrl, path) = (parts.next(), parts.next(), parts.next());
        match (id, ctrl, path) {
            (Some("0"), Some(""), Some(p)) => {
                dirs.push((format!("/sys/fs/cgroup{p}"), "memory.max", "memory.current"));
            }
            (_, Some(c), Some(p)) if c.split(',').any(|c| c == "memory") => dirs.push((
                format!("/sys/fs/cgroup/memory{p}"),
                "memory.limit_in_bytes",
                "memory.usage_in_bytes",
            )),
            _ => {}
        }
    }
    dirs.push(("/sys/fs/cgroup".into(), "memory.max", "memory.current"));
    dirs.push((
        "/sys/fs/cgroup/memory".into(),
        "memory.limit_in_bytes",
        "memory.usage_in_bytes",
    ));
    dirs.into_iter()
        .filter_map(|(dir, limit, usage)| {
            let limit = read(format!("{dir}/{limit}"))?;
            let usage = read(format!("{dir}/{usage}")).unwrap_or_default();
            cgroup_limit_room(&limit, &usage)
        })
        .min()
}

/// The room a cgroup's limit file's text leaves over its usage file's
/// text; `None` when the limit is "max" or no real limit (v1 writes
/// unlimited as a number near 2⁶³).
fn cgroup_limit_room(limit: &str, usage: &str) -> Option<u64> {
    let limit: u64 = limit.trim().parse().ok()?;
    if limit >= 1 << 62 {
        return None;
    }
    let used: u64 = usage.trim().parse().unwrap_or(0);
    Some(limit.saturating_sub(used))
}

/// `MemTotal` of a `/proc/meminfo` text, in bytes.
fn meminfo_total(text: &str) -> Option<u64> {
    meminfo_field(text, "MemTotal:")
}

/// A field of a `/proc/meminfo` (or `/proc/self/status`) text given in
/// kB, in bytes.
fn meminfo_field(text: &str, name: &str) -> Option<u64> {
    let line = text.lines().find(|l| l.starts_with(name))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn free_disk_is_read_at_the_nearest_existing_directory() {
        let tmp = std::env::temp_dir();
        let here = free_disk(&tmp).expect("statvfs of the temporary directory");
        let below = free_disk(&tmp.join("not/made/yet")).expect("its ancestor's");
        // The same file system, read twice while others may write to it.
        assert!(here > 0 && below > 0);
        assert!(free_disk(std::path::Path::new("")).is_some());
    }

    #[test]
    fn reads_mem_total() {
        let text = "MemTotal:       24576000 kB\nMemFree:        1000 kB\n";
        assert_eq!(meminfo_total(text), Some(24_576_000 * 1024));
        assert_eq!(meminfo_total("nothing here"), None);
    }

    #[test]
    fn reads_resource_limits() {
        let limits = "Limit                     Soft Limit           Hard Limit           Units\n\
                      Max data size             unlimited            unlimited            bytes\n\
                      Max address space         2048000000           unlimited            bytes\n";
        let status = "VmSize:\t   48000 kB\nVmData:\t    1000 kB\n";
        assert_eq!(
            rlimit_room(limits, "Max address space", status, "VmSize:"),
            Some(2_048_000_000 - 48_000 * 1024)
        );
        assert_eq!(
            rlimit_room(limits, "Max data size", status, "VmData:"),
            None
        );
    }

    #[test]
    fn reads_cgroup_limits() {
        assert_eq!(cgroup_limit_room("max\n", "100"), None);
        assert_eq!(cgroup_limit_room("9223372036854771712\n", "100"), None);
        assert_eq!(cgroup_limit_room("1000000\n", "400000\n"), Some(600_000));
        assert_eq!(cgroup_limit_room("1000\n", "4000\n"), Some(0));
    }

    #[test]
    fn usable_memory_is_at_most_available() {
        if let (Some(u), Some(a)) = (usable_memory(), available_memory()) {
            assert!(u <= a);
        }
    }
}
