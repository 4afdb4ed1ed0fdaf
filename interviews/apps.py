from django.apps import AppConfig


class InterviewsConfig(AppConfig):
    name = "interviews"
    verbose_name = "Interviews"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from interviews import bank_cache
        from interviews.realtime import access
        from interviews.services import live  # noqa: F401 - its part_passed receiver

        bank_cache.connect_signals()
        access.connect_signals()
