"""Django admin for every model: inlines for parts, tests, follow-ups, flaws, dimensions and
stage templates; search; filters.

Versioned bank rows (questions and what they hold, rubrics and their dimensions) are
read-only here: edits go through the bank editor's services (a new version, verification
reset). Its actions (verify, publish) call the same services. Practice rows (loops,
submissions, events) are mostly read-only too: they are history.
"""

from django.contrib import admin, messages
from django.utils.html import format_html

from interviews import models as m


class BankVersionReadOnly:
    """Bank versions are history: a stage, a submission or a scorecard points at exactly
    what it was asked, judged or scored against. Here they are read-only (no add, change
    or delete); the bank editor (`/bank/`) and `import_bank` save through the services,
    which make a new version and reset its verification."""

    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


class PartInline(BankVersionReadOnly, admin.StackedInline):
    model = m.Part
    extra = 0
    show_change_link = True


class TestCaseInline(BankVersionReadOnly, admin.TabularInline):
    model = m.TestCase
    extra = 0


class FollowUpInline(BankVersionReadOnly, admin.StackedInline):
    model = m.FollowUp
    extra = 0


class PlantedFlawInline(BankVersionReadOnly, admin.TabularInline):
    model = m.PlantedFlaw
    extra = 0


#: What verification and the import record on a question: shown, never edited here.
VERIFICATION_FIELDS = (
    "verified_at",
    "verification",
    "reference_time_ms",
    "fingerprint",
    "created_at",
    "created_by",
)


@admin.register(m.Question)
class QuestionAdmin(BankVersionReadOnly, admin.ModelAdmin):
    list_display = ("slug", "version", "kind", "title", "difficulty", "status", "is_verified")
    list_filter = ("kind", "status", "difficulty")
    search_fields = ("slug", "title", "prompt")
    readonly_fields = VERIFICATION_FIELDS
    inlines = [PartInline, FollowUpInline, PlantedFlawInline]
    actions = ["verify_references", "publish"]
    fieldsets = (
        (None, {"fields": ("slug", "version", "kind", "title", "difficulty", "tags", "status")}),
        ("Prompt", {"fields": ("prompt", "rubric")}),
        (
            "Coding",
            {
                "classes": ("collapse",),
                "fields": (
                    "languages",
                    "io",
                    "entrypoint",
                    "checker",
                    ("time_limit_ms", "memory_limit_mb", "output_limit_mb"),
                    "starter",
                    "reference",
                ),
            },
        ),
        ("Review document", {"classes": ("collapse",), "fields": ("document",)}),
        ("Verification", {"fields": VERIFICATION_FIELDS}),
    )

    def change_view(self, request, object_id, form_url="", extra_context=None):
        if request.method == "GET":
            self.message_user(
                request,
                format_html(
                    'Read-only: edit this question in the <a href="/bank/questions/{}">bank '
                    "editor</a>, which saves a new version and verifies it again.",
                    object_id,
                ),
                messages.INFO,
            )
        return super().change_view(request, object_id, form_url, extra_context)

    @admin.display(boolean=True, description="verified")
    def is_verified(self, obj: m.Question) -> bool:
        return obj.is_verified

    @admin.action(description="Verify reference solutions in the sandbox (on the worker)")
    def verify_references(self, request, queryset):
        from interviews.services.bank_import import question_verify_reference

        queued = [
            question_verify_reference(question=question, actor=request.user)
            for question in queryset.filter(kind="coding")
        ]
        self.message_user(
            request,
            f"Queued {len(queued)} verification{'s' if len(queued) != 1 else ''} on the judge "
            "worker; the Verification column shows each outcome when it is done.",
            messages.SUCCESS,
        )

    @admin.action(description="Publish (coding questions must be verified)")
    def publish(self, request, queryset):
        from interviews.services.questions import question_publish

        for question in queryset:
            try:
                question_publish(question=question, actor=request.user)
            except Exception as exc:  # a domain error explains why; show it
                self.message_user(request, f"{question}: {exc}", messages.ERROR)
            else:
                self.message_user(request, f"{question}: published", messages.SUCCESS)


@admin.register(m.Part)
class PartAdmin(BankVersionReadOnly, admin.ModelAdmin):
    list_display = ("question", "position", "title")
    search_fields = ("question__slug", "title")
    inlines = [TestCaseInline]


@admin.register(m.TestCase)
class TestCaseAdmin(BankVersionReadOnly, admin.ModelAdmin):
    list_display = ("part", "visibility", "position")
    list_filter = ("visibility",)
    search_fields = ("part__question__slug",)


@admin.register(m.FollowUp)
class FollowUpAdmin(BankVersionReadOnly, admin.ModelAdmin):
    list_display = ("question", "position", "trigger", "unlocks_part")
    list_filter = ("trigger",)
    search_fields = ("question__slug", "prompt")


@admin.register(m.PlantedFlaw)
class PlantedFlawAdmin(BankVersionReadOnly, admin.ModelAdmin):
    list_display = ("question", "category", "line_start", "line_end", "severity")
    list_filter = ("category", "severity")
    search_fields = ("question__slug", "explanation")


class DimensionInline(BankVersionReadOnly, admin.TabularInline):
    model = m.Dimension
    extra = 0


@admin.register(m.Rubric)
class RubricAdmin(BankVersionReadOnly, admin.ModelAdmin):
    list_display = ("slug", "title")
    search_fields = ("slug", "title")
    inlines = [DimensionInline]


@admin.register(m.RubricVersion)
class RubricVersionAdmin(BankVersionReadOnly, admin.ModelAdmin):
    """The snapshots stages are scored on; made by loop starts, never by hand."""

    list_display = ("rubric", "version", "title", "created_at")
    search_fields = ("rubric__slug",)


@admin.register(m.Dimension)
class DimensionAdmin(BankVersionReadOnly, admin.ModelAdmin):
    list_display = ("rubric", "position", "name", "weight")
    search_fields = ("rubric__slug", "name")


class StageTemplateInline(admin.TabularInline):
    model = m.StageTemplate
    extra = 0


@admin.register(m.LoopTemplate)
class LoopTemplateAdmin(admin.ModelAdmin):
    list_display = ("slug", "title", "status")
    list_filter = ("status",)
    search_fields = ("slug", "title")
    inlines = [StageTemplateInline]


@admin.register(m.StageTemplate)
class StageTemplateAdmin(admin.ModelAdmin):
    list_display = ("loop_template", "position", "kind", "title", "minutes")
    list_filter = ("kind",)


class StageInline(admin.TabularInline):
    model = m.Stage
    extra = 0
    fields = ("position", "kind", "title", "status", "deadline", "coach", "coach_requested")
    readonly_fields = ("position", "kind", "title", "status", "deadline")


@admin.register(m.Loop)
class LoopAdmin(admin.ModelAdmin):
    list_display = ("id", "title", "candidate", "coached", "created_at")
    list_filter = ("coached", "template")
    search_fields = ("candidate__username", "title")
    inlines = [StageInline]


class StageQuestionInline(admin.TabularInline):
    model = m.StageQuestion
    extra = 0


@admin.register(m.Stage)
class StageAdmin(admin.ModelAdmin):
    list_display = ("id", "loop", "position", "kind", "status", "coach", "coach_requested")
    list_filter = ("status", "kind", "coach_requested")
    search_fields = ("loop__candidate__username", "title")
    raw_id_fields = ("loop", "coach")
    inlines = [StageQuestionInline]


@admin.register(m.StageFollowUp)
class StageFollowUpAdmin(admin.ModelAdmin):
    list_display = ("stage", "follow_up", "unlocks_part", "pushed_by", "created_at")
    raw_id_fields = ("stage",)


class TestResultInline(admin.TabularInline):
    model = m.TestResult
    extra = 0
    readonly_fields = ("index", "hidden", "verdict", "time_ms", "memory_kb", "exit_signal")
    fields = readonly_fields


@admin.register(m.Submission)
class SubmissionAdmin(admin.ModelAdmin):
    list_display = ("id", "stage", "question", "part", "language", "mode", "status", "verdict")
    list_filter = ("status", "verdict", "language", "mode")
    search_fields = ("author__username", "question__slug")
    raw_id_fields = ("stage", "question", "author")
    inlines = [TestResultInline]


@admin.register(m.TestResult)
class TestResultAdmin(admin.ModelAdmin):
    list_display = ("submission", "index", "hidden", "verdict", "time_ms", "memory_kb")
    list_filter = ("verdict", "hidden")
    raw_id_fields = ("submission",)


@admin.register(m.Answer)
class AnswerAdmin(admin.ModelAdmin):
    list_display = ("stage", "question", "updated_at")
    raw_id_fields = ("stage", "question")


@admin.register(m.ReviewComment)
class ReviewCommentAdmin(admin.ModelAdmin):
    list_display = ("stage", "category", "line_start", "line_end", "author")
    list_filter = ("category",)
    raw_id_fields = ("stage", "question")


@admin.register(m.StageEvent)
class StageEventAdmin(admin.ModelAdmin):
    list_display = ("stage", "seq", "type", "actor", "private", "created_at")
    list_filter = ("type", "private")
    raw_id_fields = ("stage",)


@admin.register(m.CoachNote)
class CoachNoteAdmin(admin.ModelAdmin):
    list_display = ("stage", "author", "created_at")
    raw_id_fields = ("stage",)


@admin.register(m.Scorecard)
class ScorecardAdmin(admin.ModelAdmin):
    list_display = ("stage", "coach", "recommendation", "updated_at")
    list_filter = ("recommendation",)
    raw_id_fields = ("stage",)


@admin.register(m.ReviewMatchOverride)
class ReviewMatchOverrideAdmin(admin.ModelAdmin):
    list_display = ("comment", "flaw", "coach", "updated_at")
    raw_id_fields = ("comment", "flaw")


@admin.register(m.AuditEntry)
class AuditEntryAdmin(admin.ModelAdmin):
    """Read-only: the audit trail of bank changes."""

    list_display = ("created_at", "actor", "action", "target_label")
    list_filter = ("action",)
    search_fields = ("target_label", "actor__username")
    readonly_fields = [f.name for f in m.AuditEntry._meta.fields]

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False


# The admin index links the operations views (interviews/api/ops.py).
admin.site.index_template = "admin/mockloop_index.html"
