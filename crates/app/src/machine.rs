//! What the machine has: its memory, for the defaults and the limits of
//! tables and searches.

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

/// `MemTotal` of a `/proc/meminfo` text, in bytes.
fn meminfo_total(text: &str) -> Option<u64> {
    meminfo_field(text, "MemTotal:")
}

/// A field of a `/proc/meminfo` text, in bytes.
fn meminfo_field(text: &str, name: &str) -> Option<u64> {
    let line = text.lines().find(|l| l.starts_with(name))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_mem_total() {
        let text = "MemTotal:       24576000 kB\nMemFree:        1000 kB\n";
        assert_eq!(meminfo_total(text), Some(24_576_000 * 1024));
        assert_eq!(meminfo_total("nothing here"), None);
    }
}
