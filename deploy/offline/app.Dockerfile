# The offline app image's layer on the debootstrap base (deploy/offline/build.py): the same
# image as ../../Dockerfile, built with no registry. The context is made by the builder:
# wheels/ (every dependency, fetched from PyPI on the host by `pip wheel`), the project's
# sources and the frontend built on the host (frontend/dist).
FROM {base}
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 \
    MOCKLOOP_VAR_DIR=/var/lib/mockloop STATIC_ROOT=/srv/static PYTHONPATH=/srv/mockloop \
    VIRTUAL_ENV=/opt/venv PATH=/opt/venv/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
WORKDIR /srv/mockloop
COPY wheels/ /tmp/wheels/
RUN python3 -m venv /opt/venv \
 && /opt/venv/bin/pip install --no-cache-dir --no-index --no-deps /tmp/wheels/*.whl \
 && rm -rf /tmp/wheels \
 && useradd --system --uid 10100 --home-dir /var/lib/mockloop mockloop \
 && mkdir -p /var/lib/mockloop /srv/static && chown mockloop /var/lib/mockloop
COPY src/ ./
RUN /opt/venv/bin/pip install --no-cache-dir --no-index --no-deps --no-build-isolation . \
 && rm -rf build *.egg-info \
 && SECRET_KEY=build-only python manage.py collectstatic --noinput -v0
USER mockloop
EXPOSE 8000
HEALTHCHECK --interval=10s --timeout=3s --retries=5 \
  CMD python -c "import urllib.request; urllib.request.urlopen('http://127.0.0.1:8000/healthz', timeout=2)"
ENV WEB_CONCURRENCY=2
CMD ["uvicorn", "mockloop.asgi:application", "--host", "0.0.0.0", "--port", "8000", "--proxy-headers", "--lifespan", "off", "--ws-max-size", "1048576"]
