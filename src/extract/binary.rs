//! A bounds-checked little-endian reader over a binary file's bytes: the one the two binary
//! formats pith reads share, site templates ([`crate::extract::fastce::model`]) and learned
//! models ([`crate::extract::learned::model_file`]). Each format turns a [`Short`] into its own
//! error.

/// A read that the bytes left cannot satisfy.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Short {
    /// A read starting at byte `.0` runs past the end.
    End(usize),
    /// A count `.0`, read at byte `.1`, of more items than the bytes left can hold.
    Count(usize, usize),
}

/// A method per number type that reads one, little-endian: each type has its own
/// `from_le_bytes` (no trait names them, so no one generic function can call them).
macro_rules! little_endian {
    ($($t:ident),*) => {
        $(
            pub(crate) fn $t(&mut self) -> Result<$t, Short> {
                Ok($t::from_le_bytes(self.array()?))
            }
        )*
    };
}

/// A cursor over `bytes` that refuses to read past them.
pub(crate) struct Reader<'b> {
    bytes: &'b [u8],
    pos: usize,
}

impl<'b> Reader<'b> {
    /// A reader of `bytes` from byte `pos` on.
    pub(crate) fn new(bytes: &'b [u8], pos: usize) -> Reader<'b> {
        Reader { bytes, pos }
    }

    /// The offset of the next byte to read.
    pub(crate) fn pos(&self) -> usize {
        self.pos
    }

    /// The bytes not read yet.
    pub(crate) fn rest(&self) -> &'b [u8] {
        self.bytes.get(self.pos..).unwrap_or(&[])
    }

    /// The number of bytes not read yet.
    pub(crate) fn left(&self) -> usize {
        self.bytes.len().saturating_sub(self.pos)
    }

    /// The next `n` bytes.
    pub(crate) fn take(&mut self, n: usize) -> Result<&'b [u8], Short> {
        let end = self.pos.checked_add(n).filter(|&e| e <= self.bytes.len());
        let Some(end) = end else {
            return Err(Short::End(self.pos));
        };
        let s = self.bytes.get(self.pos..end).unwrap_or(&[]);
        self.pos = end;
        Ok(s)
    }

    fn array<const N: usize>(&mut self) -> Result<[u8; N], Short> {
        let mut a = [0u8; N];
        a.copy_from_slice(self.take(N)?);
        Ok(a)
    }

    little_endian!(u8, u16, u32, i32, u64, f32, f64);

    /// A u32 count of items of at least `each` bytes, checked against the bytes left.
    pub(crate) fn count(&mut self, each: usize) -> Result<usize, Short> {
        let at = self.pos;
        let n = self.u32()? as usize;
        self.check(n, each, at)
    }

    /// A u16 count of items of at least `each` bytes, checked against the bytes left.
    pub(crate) fn count16(&mut self, each: usize) -> Result<usize, Short> {
        let at = self.pos;
        let n = usize::from(self.u16()?);
        self.check(n, each, at)
    }

    /// `n`, a count read at byte `at`, when `n` items of at least `each` bytes fit in the bytes
    /// left.
    pub(crate) fn check(&self, n: usize, each: usize, at: usize) -> Result<usize, Short> {
        if n.saturating_mul(each) > self.left() {
            return Err(Short::Count(n, at));
        }
        Ok(n)
    }
}
