# Mockloop web / worker / beat image.
#
# Registry-connected hosts: `docker compose build` (python:3.11-slim + node:20 for the
# frontend). Air-gapped hosts: build with the offline base the sandbox uses, e.g.
#   docker build --build-arg BASE_IMAGE=mockloop-rootfs-python:<tag> \
#                --build-arg NODE_IMAGE=<any image with node 20> .
# (see docs/operations.md, "Air-gapped hosts").
ARG BASE_IMAGE=python:3.11-slim
ARG NODE_IMAGE=node:20-bookworm-slim

FROM ${NODE_IMAGE} AS frontend
WORKDIR /src/frontend
COPY frontend/package.json frontend/package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY frontend/ ./
RUN npm run build

# The server's translations: .po in the repository, .mo compiled here (build outputs).
FROM ${BASE_IMAGE} AS catalogues
RUN apt-get update && apt-get install -y --no-install-recommends gettext \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY locale/ locale/
RUN for po in locale/*/LC_MESSAGES/*.po; do msgfmt --check-format -o "${po%.po}.mo" "$po"; done

FROM ${BASE_IMAGE} AS app
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 \
    MOCKLOOP_VAR_DIR=/var/lib/mockloop STATIC_ROOT=/srv/static
WORKDIR /srv/mockloop
COPY pyproject.toml README.md ./
COPY mockloop/ mockloop/
COPY interviews/ interviews/
COPY sandbox/ sandbox/
# The shipped question bank (`migrate` imports it); its generator (tools/) stays out.
COPY bank/ bank/
COPY manage.py ./
RUN pip install --no-cache-dir . \
 && useradd --system --uid 10100 --home-dir /var/lib/mockloop mockloop \
 && mkdir -p /var/lib/mockloop /srv/static && chown mockloop /var/lib/mockloop
COPY --from=frontend /src/frontend/dist frontend/dist
COPY --from=catalogues /src/locale locale/
RUN SECRET_KEY=build-only python manage.py collectstatic --noinput -v0
USER mockloop
EXPOSE 8000
HEALTHCHECK --interval=10s --timeout=3s --retries=5 \
  CMD python -c "import urllib.request; urllib.request.urlopen('http://127.0.0.1:8000/healthz', timeout=2)"
# uvicorn reads WEB_CONCURRENCY (worker processes) and FORWARDED_ALLOW_IPS (trusted proxies).
ENV WEB_CONCURRENCY=2
CMD ["uvicorn", "mockloop.asgi:application", "--host", "0.0.0.0", "--port", "8000", "--proxy-headers", "--lifespan", "off", "--ws-max-size", "1048576"]
