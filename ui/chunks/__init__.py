"""The chunk previewer's sections, top to bottom: options, stats, document, table, details;
chunking counts and chunks the document (cached, a large one in a worker process)."""
