"""Running untrusted candidate code: runner images, the in-container harness, the Docker
engine calls, the judge (checkers and verdicts) and the Celery task. No Django views."""
