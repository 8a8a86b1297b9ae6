"""The code identifiers page's sections: options (samples, the options row, the code's language),
summary, and one module per tab (table, code_view, naming, code_layout, teaching); analysis holds
the cached analyses."""
