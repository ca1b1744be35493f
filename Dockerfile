# The API server: gunicorn on a slim Python base, as a non-root user.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    HOST=0.0.0.0 \
    PORT=8000

WORKDIR /app

# Dependencies first, so code changes do not reinstall them; at the exact versions
# the tests ran (constraints.txt, written by .ci/lock).
COPY pyproject.toml constraints.txt ./
RUN python -c "import tomllib; print('\n'.join(tomllib.load(open('pyproject.toml','rb'))['project']['dependencies']))" > requirements.txt \
    && pip install -r requirements.txt -c constraints.txt

COPY README.md ./
COPY stacks_api ./stacks_api
# The guides the API explorer links to (/docs/guide/api.md, rules.md).
COPY docs ./docs
ENV STACKS_DOCS_DIR=/app/docs
RUN pip install --no-deps . \
    && useradd --create-home --uid 10001 stacks

USER stacks
EXPOSE 8000

HEALTHCHECK --interval=15s --timeout=3s --start-period=5s --retries=3 \
    CMD python -c "import sys, urllib.request; sys.exit(urllib.request.urlopen('http://127.0.0.1:8000/api/v1/health', timeout=2).status != 200)"

# stacks-api serve runs gunicorn (and, with REDIS_URL, the bot workers) and stops
# them all on TERM.
CMD ["stacks-api", "serve"]
