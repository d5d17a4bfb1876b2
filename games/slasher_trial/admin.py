from django.contrib import admin

from games.slasher_trial.models import Generator, LogEntry, Participant, Trial


class ParticipantInline(admin.TabularInline):
    model = Participant
    extra = 0
    raw_id_fields = ["user"]


class GeneratorInline(admin.TabularInline):
    model = Generator
    extra = 0


@admin.register(Trial)
class TrialAdmin(admin.ModelAdmin):
    list_display = ["name", "monster", "state", "advances", "winner", "created_at"]
    list_filter = ["state"]
    raw_id_fields = ["monster"]
    inlines = [ParticipantInline, GeneratorInline]


@admin.register(LogEntry)
class LogEntryAdmin(admin.ModelAdmin):
    list_display = ["trial", "number", "actor", "action", "text", "seed"]
    list_filter = ["action"]
    raw_id_fields = ["trial", "actor"]
