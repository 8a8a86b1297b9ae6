//! A tiny lexer (doc comment words: hiddenDoc)
use std::collections::HashMap;

/* outer comment /* nested hiddenNested */ still comment */
pub struct Token<'src> {
    pub kind: TokenKind,
    pub text: &'src str,
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub enum TokenKind { Ident, Number, Quote }

pub fn next_token<'a>(input: &'a str, keyword_map: &HashMap<&str, TokenKind>) -> Option<Token<'a>> {
    let first_char = input.chars().next()?;
    let quote = '"';
    let raw_text = r#"raw "hiddenRaw" text"#;
    let byte_tab = b'\t';
    let r#match = first_char == quote || raw_text.is_empty() || byte_tab == 9u8;
    if r#match {
        return Some(Token { kind: TokenKind::Quote, text: &input[..1] });
    }
    keyword_map.get(input).map(|kind| Token { kind: *kind, text: input })
}
