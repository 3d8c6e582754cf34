//! The PTX front-end: syntax tree and parser.

pub mod ast;
pub mod lexer;
pub mod managed;
mod opcodes;
pub mod parser;

pub use parser::parse;
