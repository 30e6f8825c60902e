//! The entry points that fill a store: [`parse`], [`Parser`], [`Document`]
//! (their [`ParseOptions`] are defined a layer lower, in `options`,
//! because the event reader takes them too).

use super::*;

/// A reusable parser. It keeps its arena between inputs, so that once warm it
/// parses without allocating.
///
/// ```
/// let mut parser = sgf_grove::Parser::new();
/// for input in [&b"(;GM[1];B[aa])"[..], b"(;GM[1];B[bb];W[cc])"] {
///     let collection = parser.parse(input)?;
///     let game = collection.games().next().unwrap();
///     assert!(game.root().main_line().count() >= 2);
/// }
/// # Ok::<(), sgf_grove::Error>(())
/// ```
#[derive(Debug, Default)]
pub struct Parser {
    pub(crate) options: ParseOptions,
    pub(crate) store: Store,
}

impl Parser {
    /// A parser with default options.
    pub fn new() -> Parser {
        Parser::default()
    }

    /// A parser with the given options.
    pub fn with_options(options: ParseOptions) -> Parser {
        Parser {
            options,
            store: Store::default(),
        }
    }

    /// The options in use.
    pub fn options(&self) -> &ParseOptions {
        &self.options
    }

    /// Parses `input` into a [`Collection`] that borrows this parser's arena
    /// and the input. The previous collection's arena is reused.
    ///
    /// # Errors
    ///
    /// [`ErrorKind::NoGameTree`](crate::ErrorKind::NoGameTree) when the input
    /// holds no game tree at all; in strict mode, the first defect found.
    pub fn parse<'t, 'src>(&'t mut self, input: &'src [u8]) -> Result<Collection<'t, 'src>> {
        build::build(input, &self.options, &mut self.store)?;
        Ok(Collection {
            store: &self.store,
            input,
        })
    }

    /// Parses `input` one game tree at a time: `f` gets a [`Collection`]
    /// holding that game alone and the warnings found since the previous
    /// call, before the next game is read. The arena is reused, so memory
    /// stays that of the largest game, however large the input. Positions
    /// and spans are those of the whole input, and
    /// [`GameTree::index`] counts the games of the whole input.
    ///
    /// `f` returns [`ControlFlow::Continue`] to go on, or
    /// [`ControlFlow::Break`] with a value (an error of its own, say) to
    /// stop; the result is `Continue` with the number of games read, or the
    /// `Break` value.
    ///
    /// ```
    /// use std::ops::ControlFlow;
    /// let mut parser = sgf_grove::Parser::new();
    /// let mut seen = Vec::new();
    /// let flow = parser.parse_each(b"(;B[aa])\n(;B[bb];W[cc])", |coll| {
    ///     let game = coll.games().next().unwrap();
    ///     seen.push((game.index(), game.span().start, coll.node_count()));
    ///     ControlFlow::<()>::Continue(())
    /// })?;
    /// assert_eq!(flow, ControlFlow::Continue(2));
    /// assert_eq!(seen, [(0, 0, 1), (1, 9, 2)]);
    ///
    /// // Stop at the first game with more than one node.
    /// let flow = parser.parse_each(b"(;B[aa])(;B[bb];W[cc])(;B[dd])", |coll| {
    ///     if coll.node_count() > 1 { ControlFlow::Break(coll.games().next().unwrap().index()) }
    ///     else { ControlFlow::Continue(()) }
    /// })?;
    /// assert_eq!(flow, ControlFlow::Break(1));
    /// # Ok::<(), sgf_grove::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// As [`Parser::parse`]; the games before the error have been handed
    /// to `f`.
    pub fn parse_each<'src, B>(
        &mut self,
        input: &'src [u8],
        mut f: impl FnMut(Collection<'_, 'src>) -> ControlFlow<B>,
    ) -> Result<ControlFlow<B, usize>> {
        let mut stop = None;
        let games =
            build::build_each(input, &self.options, &mut self.store, &mut |store| match f(
                Collection { store, input },
            ) {
                ControlFlow::Continue(()) => ControlFlow::Continue(()),
                ControlFlow::Break(b) => {
                    stop = Some(b);
                    ControlFlow::Break(())
                }
            })?;
        Ok(match stop {
            Some(b) => ControlFlow::Break(b),
            None => ControlFlow::Continue(games),
        })
    }

    /// Heap bytes the parser's arena holds now (capacity, not just use).
    pub fn arena_bytes(&self) -> usize {
        self.store.heap_bytes()
    }
}

/// A parsed input that owns its arena, as returned by [`parse`].
/// [`Document::collection`] gives the [`Collection`] view; the most used
/// methods are repeated here.
///
/// # Threads
///
/// A `Document` (like a [`Parser`]) can be sent to another thread, but not
/// shared between threads: it is `Send` and not `Sync`, and so the handles
/// that borrow it ([`Collection`], [`GameTree`], [`Node`], [`Property`])
/// are neither `Send` nor `Sync`. The reason is the [arena](crate::text::Arena)
/// that decoded text goes to (a `bumpalo` bump allocator, which hands out
/// `&str` through a shared borrow and is not `Sync`). Keeping `Sync` would
/// need unsafe code (which the crate forbids) or a lock and a pool of arenas
/// per decode; the way to use cores is one parser per thread (per file, or
/// per game with [`Parser::parse_each`]), which needs only `Send`.
///
/// ```compile_fail
/// fn shared<T: Sync>(_: &T) {}
/// let doc = sgf_grove::parse(b"(;B[aa])").unwrap();
/// shared(&doc); // not Sync
/// ```
#[derive(Debug)]
pub struct Document<'src> {
    pub(crate) store: Store,
    pub(crate) input: &'src [u8],
}

impl<'src> Document<'src> {
    /// Parses `input` with `options`.
    ///
    /// # Errors
    ///
    /// As [`Parser::parse`].
    pub fn parse_with(input: &'src [u8], options: &ParseOptions) -> Result<Document<'src>> {
        let mut store = Store::default();
        build::build(input, options, &mut store)?;
        Ok(Document { store, input })
    }

    /// The collection view of this document.
    #[inline]
    pub fn collection(&self) -> Collection<'_, 'src> {
        Collection {
            store: &self.store,
            input: self.input,
        }
    }

    /// The game trees, in file order.
    pub fn games(&self) -> Games<'_, 'src> {
        self.collection().games()
    }

    /// The warnings, in file order.
    pub fn warnings(&self) -> &[Warning] {
        &self.store.warnings
    }

    /// Heap bytes the arena holds (capacity, not just use).
    pub fn arena_bytes(&self) -> usize {
        self.store.heap_bytes()
    }
}

/// Parses `input` with default options into a [`Document`] that owns its
/// arena.
///
/// ```
/// let doc = sgf_grove::parse(b"(;GM[1]SZ[9];B[ee];W[ge])")?;
/// let root = doc.games().next().unwrap().root();
/// assert_eq!(root.raw("SZ"), Some(&b"9"[..]));
/// assert_eq!(root.main_line().count(), 3);
/// # Ok::<(), sgf_grove::Error>(())
/// ```
///
/// # Errors
///
/// [`ErrorKind::NoGameTree`](crate::ErrorKind::NoGameTree) when the input
/// holds no game tree.
pub fn parse(input: &[u8]) -> Result<Document<'_>> {
    Document::parse_with(input, &ParseOptions::default())
}
