//! Conversion of literal tokens to values (PTX ISA 4.5 "Constants").
//!
//! The lexer has already checked the shape of each literal; here we compute the value
//! with overflow checks. Integer literals are 64-bit in PTX (4.5.1): anything above
//! `u64::MAX` is an error. A `U` suffix only marks the literal unsigned; the value is the
//! same, so it is dropped. A leading `-` is folded in by [`negate`].

use super::{PResult, Parser};
use crate::ptx::ast::Immediate;
use crate::ptx::lexer::{TokKind, Token};

/// The value of an integer token (`Int` kind), or `None` if it does not fit in 64 bits.
pub(crate) fn int_token_value(text: &str) -> Option<u64> {
    let t = text.strip_suffix(['U', 'u']).unwrap_or(text);
    let b = t.as_bytes();
    let (radix, digits) = if b.len() > 2 && b[0] == b'0' && (b[1] == b'x' || b[1] == b'X') {
        (16, &t[2..])
    } else if b.len() > 2 && b[0] == b'0' && (b[1] == b'b' || b[1] == b'B') {
        (2, &t[2..])
    } else if b.len() > 1 && b[0] == b'0' {
        (8, &t[1..])
    } else {
        (10, t)
    };
    // `from_str_radix` is linear and overflow-checked; the lexer guarantees the digits.
    u64::from_str_radix(digits, radix).ok()
}

/// Negate an immediate (`-` in front of a literal). Float bit patterns flip the sign bit,
/// which is exactly IEEE negation.
pub(crate) fn negate(imm: Immediate) -> Immediate {
    match imm {
        Immediate::Int(v) => Immediate::Int(-v),
        Immediate::F32Bits(b) => Immediate::F32Bits(b ^ 0x8000_0000),
        Immediate::F64Bits(b) => Immediate::F64Bits(b ^ 0x8000_0000_0000_0000),
        Immediate::Float(f) => Immediate::Float(-f),
    }
}

impl<'a> Parser<'a> {
    /// True if the current token starts a literal (possibly negated).
    pub(crate) fn at_literal(&mut self) -> bool {
        match self.tok.kind {
            TokKind::Int | TokKind::Float | TokKind::HexF32 | TokKind::HexF64 => true,
            TokKind::Minus => matches!(self.peek().kind, TokKind::Int | TokKind::Float | TokKind::HexF32 | TokKind::HexF64),
            _ => false,
        }
    }

    /// A literal with an optional leading `-`.
    pub(crate) fn immediate(&mut self, what: &str) -> PResult<Immediate> {
        let neg = self.eat(TokKind::Minus);
        let t = self.tok;
        let imm = match t.kind {
            TokKind::Int => Immediate::Int(self.int_of(t)? as i128),
            TokKind::HexF32 => match u32::from_str_radix(&t.text[2..], 16) {
                Ok(b) => Immediate::F32Bits(b),
                Err(_) => return Err(self.error_at(t, "invalid hex float")),
            },
            TokKind::HexF64 => match u64::from_str_radix(&t.text[2..], 16) {
                Ok(b) => Immediate::F64Bits(b),
                Err(_) => return Err(self.error_at(t, "invalid hex double")),
            },
            TokKind::Float => match t.text.parse::<f64>() {
                Ok(f) => Immediate::Float(f),
                Err(_) => return Err(self.error_at(t, "invalid floating-point literal")),
            },
            _ => return Err(self.unexpected(what)),
        };
        self.bump();
        Ok(if neg { negate(imm) } else { imm })
    }

    fn int_of(&mut self, t: Token<'a>) -> PResult<u64> {
        match int_token_value(t.text) {
            Some(v) => Ok(v),
            None => Err(self.error_at(t, "integer literal does not fit in 64 bits")),
        }
    }

    /// A non-negative integer literal (sizes, counts, alignments, tuning values).
    pub(crate) fn int_value(&mut self, what: &str) -> PResult<u64> {
        let t = self.tok;
        if t.kind != TokKind::Int {
            return Err(self.unexpected(what));
        }
        let v = self.int_of(t)?;
        self.bump();
        Ok(v)
    }

    /// A non-negative integer that must fit in `u32`.
    pub(crate) fn u32_value(&mut self, what: &str) -> PResult<u32> {
        let t = self.tok;
        let v = self.int_value(what)?;
        u32::try_from(v).map_err(|_| self.error_at(t, format!("{what} is out of range")))
    }

    /// A signed offset after `+` or `-` in `sym+off` / `[reg+off]` / `[reg+-off]`.
    /// Called at the `+`/`-` token.
    pub(crate) fn signed_offset(&mut self) -> PResult<i64> {
        let mut neg = self.bump().kind == TokKind::Minus;
        if self.eat(TokKind::Minus) {
            neg = !neg;
        }
        let t = self.tok;
        let v = self.int_value("an integer offset")? as i128;
        let v = if neg { -v } else { v };
        // Address arithmetic is modulo 2^64, so a positive offset above `i64::MAX`
        // (`[%rd1+0xFFFFFFFFFFFFFFFC]`) wraps to the negative offset it means.
        match i64::try_from(v) {
            Ok(o) => Ok(o),
            Err(_) if v > 0 => Ok(v as u64 as i64),
            Err(_) => Err(self.error_at(t, "offset does not fit in 64 bits")),
        }
    }
}
