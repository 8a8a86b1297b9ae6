"""Altair chart builders: data in, `alt.Chart` out. Pure functions, tested without Streamlit.

One module per page (counter, bpe, identifiers, languages, chunks); this package re-exports
nothing so importing one page's charts does not import the others.
"""
