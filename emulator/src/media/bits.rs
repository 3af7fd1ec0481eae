//! Most-significant-bit-first bit writer, shared by the H.264 and FLAC encoders.

#[derive(Default)]
pub(super) struct BitWriter {
    bytes: Vec<u8>,
    /// Bits of the byte being filled, in its low `used` bits.
    current: u8,
    used: u32,
}

impl BitWriter {
    pub(super) fn with_capacity(bytes: usize) -> Self {
        Self {
            bytes: Vec::with_capacity(bytes),
            ..Self::default()
        }
    }

    /// Writes the low `n` bits of `value` (`n` at most 32), highest first.
    pub(super) fn put(&mut self, value: u32, n: u32) {
        for i in (0..n.min(32)).rev() {
            self.put_bit((value >> i) & 1 == 1);
        }
    }

    pub(super) fn put_bit(&mut self, bit: bool) {
        self.current = (self.current << 1) | u8::from(bit);
        self.used += 1;
        if self.used == 8 {
            self.bytes.push(self.current);
            self.current = 0;
            self.used = 0;
        }
    }

    /// `n` zero bits; long runs (a Rice code's unary part) go a byte at a time.
    pub(super) fn zeros(&mut self, mut n: u64) {
        while n > 0 && self.used != 0 {
            self.put_bit(false);
            n -= 1;
        }
        while n >= 8 {
            self.bytes.push(0);
            n -= 8;
        }
        for _ in 0..n {
            self.put_bit(false);
        }
    }

    /// Whole bytes, when the writer is on a byte boundary (else bit by bit).
    pub(super) fn put_bytes(&mut self, bytes: &[u8]) {
        if self.used == 0 {
            self.bytes.extend_from_slice(bytes);
        } else {
            bytes.iter().for_each(|&b| self.put(u32::from(b), 8));
        }
    }

    /// Unsigned Exp-Golomb code `ue(v)` of H.264.
    pub(super) fn ue(&mut self, value: u32) {
        let coded = u64::from(value) + 1;
        let len = 64 - coded.leading_zeros();
        self.zeros(u64::from(len - 1));
        for i in (0..len).rev() {
            self.put_bit((coded >> i) & 1 == 1);
        }
    }

    /// Signed Exp-Golomb code `se(v)`: 0, 1, -1, 2, -2... map to 0, 1, 2, 3, 4...
    pub(super) fn se(&mut self, value: i32) {
        let mapped = if value > 0 {
            (value as u32) * 2 - 1
        } else {
            value.unsigned_abs() * 2
        };
        self.ue(mapped);
    }

    pub(super) fn is_aligned(&self) -> bool {
        self.used == 0
    }

    /// Zero bits up to the next byte boundary.
    pub(super) fn align(&mut self) {
        while !self.is_aligned() {
            self.put_bit(false);
        }
    }

    /// The bytes written so far; a partial last byte is padded with zeros.
    pub(super) fn into_bytes(mut self) -> Vec<u8> {
        self.align();
        self.bytes
    }
}
