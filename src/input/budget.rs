//! What one input may expand to: [`Budget`], the bytes and games read from
//! one top-level input (a file named or found in a folder, standard
//! input), whatever archives and compressed streams nest inside it.

use std::cell::Cell;
use std::fmt;
use std::io::{self, Read};

/// How many bytes may be read from one input, by default
/// ([`Inputs::max_input_bytes`](super::Inputs::max_input_bytes)): 16 TiB.
pub const DEFAULT_MAX_INPUT_BYTES: u64 = 16 << 40;

/// How many games may be read from one input, by default
/// ([`Inputs::max_input_games`](super::Inputs::max_input_games)): 16
/// billion.
pub const DEFAULT_MAX_INPUT_GAMES: u64 = 16_000_000_000;

/// The bytes and games read so far from one input, and its limits. Bytes
/// are those handed to the parser (decompressed SGF text of every member,
/// at every depth) and those copied to temporary files (zip and 7z
/// archives read from a stream): the work an input makes, however small it
/// is on disk.
#[derive(Debug)]
pub(crate) struct Budget {
    max_bytes: u64,
    max_games: u64,
    bytes: Cell<u64>,
    games: Cell<u64>,
    over: Cell<bool>,
}

impl Budget {
    pub(crate) fn new(max_bytes: u64, max_games: u64) -> Budget {
        Budget {
            max_bytes,
            max_games,
            bytes: Cell::new(0),
            games: Cell::new(0),
            over: Cell::new(false),
        }
    }

    /// Whether the input went over a limit: nothing more is read from it.
    pub(crate) fn is_over(&self) -> bool {
        self.over.get()
    }

    /// Counts `n` bytes read; an error once over the limit.
    fn add_bytes(&self, n: usize) -> io::Result<()> {
        let bytes = self.bytes.get().saturating_add(n as u64);
        self.bytes.set(bytes);
        if bytes > self.max_bytes {
            self.over.set(true);
            return Err(OverBudget::Bytes(self.max_bytes).into());
        }
        Ok(())
    }

    /// Counts a game read; an error once over the limit.
    pub(crate) fn add_game(&self) -> io::Result<()> {
        let games = self.games.get().saturating_add(1);
        self.games.set(games);
        if games > self.max_games {
            self.over.set(true);
            return Err(OverBudget::Games(self.max_games).into());
        }
        Ok(())
    }
}

/// An input read past its budget: the error of a read (or of counting a
/// game) that went over, carried inside an [`io::Error`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum OverBudget {
    /// More bytes than this.
    Bytes(u64),
    /// More games than this.
    Games(u64),
}

impl OverBudget {
    /// The budget error that `err` carries, if it is one.
    pub(crate) fn of(err: &io::Error) -> Option<OverBudget> {
        err.get_ref()?.downcast_ref::<OverBudget>().copied()
    }
}

impl fmt::Display for OverBudget {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OverBudget::Bytes(n) => write!(
                f,
                "more than {n} bytes read from this input (--max-input-bytes); the rest of it is not read"
            ),
            OverBudget::Games(n) => write!(
                f,
                "more than {n} games read from this input (--max-input-games); the rest of it is not read"
            ),
        }
    }
}

impl std::error::Error for OverBudget {}

impl From<OverBudget> for io::Error {
    fn from(over: OverBudget) -> io::Error {
        io::Error::other(over)
    }
}

/// A reader whose bytes count against a [`Budget`].
pub(crate) struct Metered<'b, R> {
    pub(crate) inner: R,
    pub(crate) budget: &'b Budget,
}

impl<R: Read> Read for Metered<'_, R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.budget.is_over() {
            return Err(io::Error::other(OverBudget::Bytes(self.budget.max_bytes)));
        }
        let n = self.inner.read(buf)?;
        self.budget.add_bytes(n)?;
        Ok(n)
    }
}

/// A handle on the game budget of the input a [`Member`](super::Member)
/// comes from, for a consumer that parses it itself: each game it reads is
/// counted with [`GameBudget::count_game`].
#[derive(Clone, Copy, Debug)]
pub struct GameBudget<'a>(pub(crate) Option<&'a Budget>);

impl GameBudget<'_> {
    /// Counts one game read from the member against its input's
    /// [`Inputs::max_input_games`](super::Inputs::max_input_games).
    ///
    /// # Errors
    ///
    /// Once over the limit: an I/O error saying so (which
    /// [`InputError::io`](super::InputError::io) and
    /// [`InputError::parse`](super::InputError::parse) turn into
    /// [`InputErrorKind::OverBudget`](super::InputErrorKind::OverBudget)).
    /// The scan then reads nothing more of that input.
    pub fn count_game(&self) -> io::Result<()> {
        match self.0 {
            Some(budget) => budget.add_game(),
            None => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{Budget, Metered, OverBudget};
    use std::io::Read;

    #[test]
    fn bytes_over_the_budget_fail_the_read_that_passes_it() {
        let budget = Budget::new(10, 2);
        let mut reader = Metered {
            inner: &b"0123456789abc"[..],
            budget: &budget,
        };
        let mut buf = [0; 4];
        for _ in 0..2 {
            assert_eq!(reader.read(&mut buf).unwrap(), 4);
        }
        let err = reader.read(&mut buf).unwrap_err();
        assert_eq!(OverBudget::of(&err), Some(OverBudget::Bytes(10)));
        assert!(budget.is_over());
        assert!(reader.read(&mut buf).is_err());
    }

    #[test]
    fn games_over_the_budget() {
        let budget = Budget::new(10, 2);
        assert!(budget.add_game().is_ok() && budget.add_game().is_ok());
        let err = budget.add_game().unwrap_err();
        assert_eq!(OverBudget::of(&err), Some(OverBudget::Games(2)));
        assert!(err.to_string().starts_with("more than 2 games"), "{err}");
    }
}
