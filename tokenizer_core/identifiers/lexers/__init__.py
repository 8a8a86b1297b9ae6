"""The lexers, one module per language family; `tokenizer_core.identifiers.lexer.lex` picks one.

* `base`: lexeme kinds, `Lexeme`, `LexResult`, the output collector, positions, quoted literals.
* `c_like`: C, C++, C#, Java, Go, Rust, JavaScript, TypeScript (a subclass each).
* `sql`: SQL. `shell`: bash/sh. `python`: Python through `tokenize`, with a generic fallback.
"""
