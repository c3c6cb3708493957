//! The `u16` state of an entry during a solve (the encoding the comment of
//! `generate` describes), apart from the solve, so that a checkpoint's
//! reader can check what it loads without depending on the generator.

/// Set while a position is undecided.
pub(crate) const OPEN: u16 = 0x8000;
/// With `OPEN`: a pending win (low byte: its distance) or, with a low byte
/// of 0, a stalemate (a draw). Without `OPEN`: a stalemate lost at once.
pub(crate) const SPECIAL: u16 = 0x4000;
/// The counter of an undecided position: bits 8-13.
pub(crate) const COUNT: u16 = 0x0100;
/// On a decided position (its counter bits are free): a win in one into
/// the den, which the sweep does not take back (see `init`).
pub(crate) const DEN_WIN: u16 = 0x0100;
/// Entries per bit of the level marks.
pub(crate) const BLOCK: u64 = 4096;
/// Levels: a distance `d` is stored as `d + 1` in one byte (0 is
/// "undecided"), so distances run up to `LEVELS - 1`.
pub(crate) const LEVELS: usize = 255;

/// Whether `v` is a state a solve can leave in an entry (see the comment of
/// `generate`), to refuse a checkpoint whose checksum was made right after
/// an edit: a decided distance within the levels, the flags only where
/// they belong, a pending win odd. 0 is a lane past the table's end.
pub(crate) fn valid_state(v: u16) -> bool {
    let low = (v & 0xff) as usize;
    if v == 0 {
        return true;
    }
    if v & OPEN == 0 {
        match v & 0x7f00 {
            0 => (1..LEVELS).contains(&low),
            DEN_WIN => low == 2,
            SPECIAL => low == 1,
            _ => false,
        }
    } else if v & SPECIAL != 0 {
        v & 0x3f00 == 0 && (low == 0 || (low % 2 == 1 && low < LEVELS))
    } else {
        low < LEVELS
    }
}

/// The levels a checkpoint's next level must be below.
pub(crate) const CHECKPOINT_LEVELS: u64 = LEVELS as u64;

/// Entries per bit of the level marks, for the checks of a checkpoint.
pub(crate) const MARK_BLOCK: u64 = BLOCK;
