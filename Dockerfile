# Tokenizer Workbench: one server for a team.
#   docker build -t tokenizer-workbench .
#   docker run -p 8501:8501 --cpus 2 -e TW_PROCESSES=3 tokenizer-workbench
# Everything the app needs is installed at build time; at run time it needs no network
# (the tokenizers' data comes from the pinned packages and tokenizer_core/data).
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    STREAMLIT_BROWSER_GATHER_USAGE_STATS=false \
    STREAMLIT_CLIENT_SHOW_ERROR_DETAILS=none \
    MALLOC_ARENA_MAX=2
# STREAMLIT_CLIENT_SHOW_ERROR_DETAILS=none (as in .streamlit/config.toml, also if another config is
# mounted): an unhandled error shows users a short message, never the server's paths or code;
# the container's log keeps the traceback.
# MALLOC_ARENA_MAX=2: every session's script runs in its own thread, and glibc's default of up to
# 8 malloc arenas per core keeps freed memory of closed sessions (bench_serving: RSS after all
# sessions closed, +156 MB over warm-up with the default, +58 MB with 2 arenas).

RUN useradd --create-home --uid 10001 app
WORKDIR /app

# The README's install (dependencies first, so code changes rebuild only the last layers).
COPY requirements.txt .
RUN pip install -r requirements.txt

COPY --chown=app:app . .
USER app

EXPOSE 8501
HEALTHCHECK --interval=30s --timeout=5s --start-period=40s --retries=3 \
  CMD ["python", "-c", "import urllib.request, sys; sys.exit(urllib.request.urlopen('http://127.0.0.1:8501/_stcore/health', timeout=4).read() != b'ok')"]

# Settings for a shared instance are in .streamlit/config.toml (copied above).
CMD ["streamlit", "run", "streamlit_app.py", "--server.address=0.0.0.0", "--server.port=8501"]
